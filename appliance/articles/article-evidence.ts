import {
  AbortedError,
  ArticleMissingError,
  NntpError,
  type DecodedArticle,
  type RequestPriority,
} from '../nntp/index.js';

/**
 * The pool lane a caller asks on: streams before health checks before imports (docs/nntp.md). Every function here
 * takes it, so the importer (import lane) and the health checker (health lane) share one implementation.
 */
export type Lane = RequestPriority;

/** What the importer and the health checker need from the NNTP pool (NntpPool satisfies it; unit tests fake it). */
export interface ArticleClient {
  body(messageId: string, opts?: { priority?: RequestPriority; signal?: AbortSignal }): Promise<DecodedArticle>;
  stat(messageId: string, opts?: { priority?: RequestPriority; signal?: AbortSignal }): Promise<boolean>;
  /**
   * Many STATs under one promise (NntpPool.statBatch): true, false (missing) or the pool's error per article.
   * Optional: a client without it gets one `stat` per article.
   */
  statBatch?(
    messageIds: readonly string[],
    opts: { priority?: RequestPriority; signal?: AbortSignal; window?: number },
  ): Promise<Array<boolean | NntpError>>;
}

/**
 * What one request taught us about one article. Only `missing` (430 from every provider asked) and `damaged` (a
 * complete body that failed its CRC or size check on every provider) are evidence against the article; an
 * `unreachable` answer (timeout, refused connection, auth, no provider) says nothing about it (docs/health.md).
 */
export type ArticleOutcome =
  | { kind: 'present' }
  | { kind: 'missing' }
  | { kind: 'damaged'; reason: string }
  | { kind: 'unreachable'; reason: string };

/**
 * Fetches one article on `lane`. A missing article is an answer (undefined); anything else the pool could not do
 * (every provider down, timeouts, a corrupt body) is thrown as the pool's NntpError for the caller to classify.
 */
export async function fetchArticle(
  client: ArticleClient,
  messageId: string,
  lane: Lane,
  signal: AbortSignal,
): Promise<DecodedArticle | undefined> {
  try {
    return await client.body(messageId, { priority: lane, signal });
  } catch (err) {
    if (err instanceof ArticleMissingError) return undefined;
    throw err;
  }
}

/** STAT on `lane`: true/false when the providers answered, the pool's NntpError when they could not. */
export function statArticle(client: ArticleClient, messageId: string, lane: Lane, signal: AbortSignal) {
  return client.stat(messageId, { priority: lane, signal });
}

/** STAT that never throws for a provider's failure: the answer or why there is none. Aborts still throw. */
export async function statOutcome(
  client: ArticleClient,
  messageId: string,
  lane: Lane,
  signal: AbortSignal,
): Promise<ArticleOutcome> {
  try {
    return (await statArticle(client, messageId, lane, signal)) ? { kind: 'present' } : { kind: 'missing' };
  } catch (err) {
    return outcomeOfError(err);
  }
}

/**
 * BODY, decoded and CRC-checked by the pool, as evidence: some providers answer STAT 223 for articles whose bodies
 * are gone or damaged. `expectedSize` (the layout's decoded size) catches a body that decodes to the wrong length.
 */
export async function bodyOutcome(
  client: ArticleClient,
  messageId: string,
  lane: Lane,
  signal: AbortSignal,
  expectedSize?: number,
): Promise<ArticleOutcome> {
  try {
    const article = await fetchArticle(client, messageId, lane, signal);
    if (!article) return { kind: 'missing' };
    if (expectedSize !== undefined && article.data.byteLength !== expectedSize)
      return { kind: 'damaged', reason: `decoded ${article.data.byteLength} bytes, expected ${expectedSize}` };
    return { kind: 'present' };
  } catch (err) {
    return outcomeOfError(err);
  }
}

/** Sorts a pool failure into evidence (a corrupt body everywhere) or no evidence (an outage). Aborts rethrow. */
export function outcomeOfError(err: unknown): ArticleOutcome {
  if (err instanceof AbortedError) throw err;
  if (err instanceof ArticleMissingError) return { kind: 'missing' };
  if (err instanceof NntpError && err.kind === 'corrupt_article') return { kind: 'damaged', reason: err.message };
  if (err instanceof NntpError) return { kind: 'unreachable', reason: err.message };
  if (err instanceof Error && err.name === 'AbortError') throw err;
  return { kind: 'unreachable', reason: err instanceof Error ? err.message : String(err) };
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
