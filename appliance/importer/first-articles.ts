import { AbortedError, articleEvidence, NntpError, type DecodedArticle } from '../nntp/index.js';
import type { NzbDocument, YencFacts } from '../nzb/index.js';
import { FIRST_16K } from '../nzb/index.js';
import { fetchArticle, mapLimit, ProbeOutageError, type ArticleClient } from '../articles/index.js';
import { nonRetryableError, retryableError } from './import-errors.js';

/**
 * The first article of one NZB file, or the fact that no provider has it. Only its first 16 KiB (`head`) are kept
 * for the whole import: that is what PAR2 matching hashes and where an archive volume's first headers lie; `size`
 * is how many bytes the article decoded to (when it is no larger than `head`, `head` is the whole article).
 */
export type FirstArticle =
  | { missing: false; messageId: string; facts: YencFacts; head: Uint8Array; size: number }
  | { missing: true; messageId: string };

export const PAR2_MAGIC = Buffer.from('PAR2\0PKT', 'latin1');

/** True when the first article's decoded bytes start with a PAR2 packet, whatever the file is called. */
export const isPar2Article = (first: FirstArticle) =>
  !first.missing && Buffer.from(first.head.subarray(0, 8)).equals(PAR2_MAGIC);

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
 * Fetches one article on the import lane. A missing article is an answer (undefined); a body damaged on every
 * provider (CRC or size wrong) is damage and fails the import at once; anything else the pool could not do (every
 * provider down, timeouts) is a transient import failure, retried later with back-off.
 */
export async function fetchImportArticle(
  client: ArticleClient,
  messageId: string,
  signal: AbortSignal,
): Promise<DecodedArticle | undefined> {
  try {
    return await fetchArticle(client, messageId, 'import', signal);
  } catch (err) {
    throw asImportError(err, messageId);
  }
}

/**
 * A provider failure during an import is retryable (back-off); a body damaged on every provider is not (the
 * release is broken). Aborts and our own errors pass.
 */
export function asImportError(err: unknown, messageId?: string): unknown {
  if (err instanceof AbortedError) return err;
  if (articleEvidence(err) === 'damaged') {
    const id =
      messageId === undefined ? 'An article' : `Article ${messageId.startsWith('<') ? messageId : `<${messageId}>`}`;
    return nonRetryableError(
      `${id} is damaged on every provider (${(err as Error).message}). The release is broken; search for another one.`,
    );
  }
  if (err instanceof NntpError || err instanceof ProbeOutageError)
    return retryableError(`Usenet providers could not be reached: ${err.message}`);
  return err;
}

/**
 * The first article of every NZB file: its yEnc facts (name, size, part size) and first 16 KiB (PAR2 matching,
 * archive signatures and first headers). The rest of the article is dropped at once: a release of 500 archive
 * volumes would otherwise hold 500 decoded articles (~350 MB) for the whole import (docs/import.md, "Memory").
 */
export async function fetchFirstArticles(
  client: ArticleClient,
  doc: NzbDocument,
  signal: AbortSignal,
  concurrency = 8,
): Promise<FirstArticle[]> {
  return mapLimit(doc.files, concurrency, async (file): Promise<FirstArticle> => {
    const messageId = file.segments.messageId(0);
    const article = await fetchImportArticle(client, messageId, signal);
    if (!article) return { missing: true, messageId };
    // a copy: the decoded article may be a view of a larger buffer, which the head must not keep alive
    const head = Buffer.from(article.data.subarray(0, FIRST_16K));
    return { missing: false, messageId, facts: factsOf(article), head, size: article.data.length };
  });
}
