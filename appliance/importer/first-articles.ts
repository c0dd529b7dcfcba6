import { AbortedError, NntpError, type DecodedArticle } from '../nntp/index.js';
import type { NzbDocument, YencFacts } from '../nzb/index.js';
import { FIRST_16K } from '../nzb/index.js';
import { fetchArticle, mapLimit, ProbeOutageError, type ArticleClient } from '../articles/index.js';
import { retryableError } from './import-errors.js';

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
export async function fetchImportArticle(
  client: ArticleClient,
  messageId: string,
  signal: AbortSignal,
): Promise<DecodedArticle | undefined> {
  try {
    return await fetchArticle(client, messageId, 'import', signal);
  } catch (err) {
    throw asImportError(err);
  }
}

/** A provider failure during an import is transient (retried with back-off); aborts and our own errors pass. */
export function asImportError(err: unknown): unknown {
  if (err instanceof AbortedError) return err;
  if (err instanceof NntpError || err instanceof ProbeOutageError)
    return retryableError(`Usenet providers could not be reached: ${err.message}`);
  return err;
}

/**
 * The first article of every NZB file: its yEnc facts (name, size, part size) and first 16 KiB (PAR2 matching).
 * Whole decoded data is kept only for files that turn out to be PAR2 (their first article usually is the index).
 */
export async function fetchFirstArticles(
  client: ArticleClient,
  doc: NzbDocument,
  signal: AbortSignal,
  concurrency = 8,
): Promise<FirstArticle[]> {
  return mapLimit(doc.files, concurrency, async (file): Promise<FirstArticle> => {
    const messageId = file.segments[0]!.messageId;
    const article = await fetchImportArticle(client, messageId, signal);
    if (!article) return { missing: true, messageId };
    const isPar2 = article.data.subarray(0, 8).equals(PAR2_MAGIC);
    const head = Buffer.from(article.data.subarray(0, FIRST_16K));
    return {
      missing: false,
      messageId,
      facts: factsOf(article),
      head,
      data: isPar2 ? Buffer.from(article.data) : Buffer.alloc(0),
    };
  });
}
