import type { LinkFacts } from '../nntp/pool.js';
import type { ArticleSource, FetchHow } from './article-fetcher.js';

/** The part of the NNTP pool the reader uses (appliance/nntp NntpPool satisfies it). */
export interface BodyFetcher {
  body(
    messageId: string,
    opts: { priority?: 'stream'; signal?: AbortSignal; into?: Buffer } & FetchHow,
  ): Promise<{ data: Uint8Array }>;
  linkFacts?(): LinkFacts | undefined;
  promote?(messageId: string): boolean;
  onWire?(messageId: string): boolean;
  leftBehind?(messageId: string, left: boolean): void;
}

/**
 * Fetches on the pool's stream lane, so playback never waits behind imports or health checks; who reads (player
 * or scanner) and whether it is read-ahead pick the lane within it (docs/nntp.md, "Lanes").
 */
export function poolArticleSource(pool: BodyFetcher): ArticleSource {
  return {
    async fetch(messageId, { signal, into, urgent, reader, readAhead, stream, postedAt }) {
      const id = bracketed(messageId);
      // Decoding into the cache's recycled buffer spares a fresh 768 KB allocation (and its GC) per article.
      const article = await pool.body(id, {
        priority: 'stream',
        ...{ signal, into, urgent, reader, readAhead, stream, postedAt },
      });
      return article.data;
    },
    promote: (messageId) => void pool.promote?.(bracketed(messageId)),
    onWire: (messageId) => pool.onWire?.(bracketed(messageId)) === true,
    leftBehind: (messageId, left) => pool.leftBehind?.(bracketed(messageId), left),
    link: () => pool.linkFacts?.(),
  };
}

/** A message id as NNTP wants it, in angle brackets. */
const bracketed = (messageId: string) => (messageId.startsWith('<') ? messageId : `<${messageId}>`);
