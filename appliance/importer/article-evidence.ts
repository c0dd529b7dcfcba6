import {
  AbortedError,
  ArticleMissingError,
  NntpError,
  type DecodedArticle,
  type RequestPriority,
} from '../nntp/index.js';
import type { NzbDocument, YencFacts } from '../nzb/index.js';
import { FIRST_16K } from '../nzb/index.js';
import { formatOf } from '../archive/index.js';
import { transientError } from './import-errors.js';

/** What the importer needs from the NNTP pool (NntpPool satisfies it; unit tests pass an in-process fake). */
export interface ArticleClient {
  body(messageId: string, opts?: { priority?: RequestPriority; signal?: AbortSignal }): Promise<DecodedArticle>;
  stat(messageId: string, opts?: { priority?: RequestPriority; signal?: AbortSignal }): Promise<boolean>;
}

/** The first article of one NZB file, or the fact that no provider has it. */
export type FirstArticle =
  | { missing: false; messageId: string; facts: YencFacts; head: Uint8Array; data: Buffer }
  | { missing: true; messageId: string };

export const PAR2_MAGIC = Buffer.from('PAR2\0PKT', 'latin1');

/** True when the first article's decoded bytes start with a PAR2 packet, whatever the file is called. */
export const isPar2Article = (first: FirstArticle) => !first.missing && first.data.subarray(0, 8).equals(PAR2_MAGIC);

export function factsOf(article: DecodedArticle): YencFacts {
  return {
    name: article.name,
    size: article.totalSize,
    part: article.part,
    total: article.totalParts,
    begin: article.begin,
    end: article.end,
  };
}

/**
 * Fetches one article on the import lane. A missing article is an answer (undefined); anything else the pool
 * could not do (every provider down, timeouts) is a transient import failure, retried later with back-off.
 */
export async function fetchArticle(
  client: ArticleClient,
  messageId: string,
  signal: AbortSignal,
): Promise<DecodedArticle | undefined> {
  try {
    return await client.body(messageId, { priority: 'import', signal });
  } catch (err) {
    if (err instanceof ArticleMissingError) return undefined;
    throw asImportError(err);
  }
}

export async function statArticle(client: ArticleClient, messageId: string, signal: AbortSignal): Promise<boolean> {
  try {
    return await client.stat(messageId, { priority: 'import', signal });
  } catch (err) {
    throw asImportError(err);
  }
}

function asImportError(err: unknown): unknown {
  if (err instanceof AbortedError) return err;
  if (err instanceof NntpError) return transientError(`Usenet providers could not be reached: ${err.message}`);
  return err;
}

/**
 * The first article of every NZB file: its yEnc facts (name, size, part size) and first 16 KiB (PAR2 matching).
 * Whole decoded data is kept only for PAR2 files (their first article usually is the index) and archive volumes.
 */
export async function fetchFirstArticles(
  client: ArticleClient,
  doc: NzbDocument,
  signal: AbortSignal,
  concurrency = 8,
): Promise<FirstArticle[]> {
  return mapLimit(doc.files, concurrency, async (file): Promise<FirstArticle> => {
    const messageId = file.segments[0]!.messageId;
    const article = await fetchArticle(client, messageId, signal);
    if (!article) return { missing: true, messageId };
    const isPar2 = article.data.subarray(0, 8).equals(PAR2_MAGIC);
    const head = Buffer.from(article.data.subarray(0, FIRST_16K));
    return {
      missing: false,
      messageId,
      facts: factsOf(article),
      head,
      // PAR2 indexes are read whole; an archive volume's first article holds its headers (archive-expand.ts)
      data: isPar2 || formatOf(head) ? Buffer.from(article.data) : Buffer.alloc(0),
    };
  });
}

/** Runs `fn` over `items` with at most `limit` at once, keeping order; the first rejection rejects all. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
