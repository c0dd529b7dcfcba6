import type { ArticleSource } from './article-fetcher.js';

/** The part of the NNTP pool the reader uses (appliance/nntp NntpPool satisfies it). */
export interface BodyFetcher {
  body(
    messageId: string,
    opts: { priority?: 'stream'; signal?: AbortSignal; into?: Buffer },
  ): Promise<{ data: Uint8Array }>;
}

/** Fetches on the pool's stream lane, so playback never waits behind imports or health checks. */
export function poolArticleSource(pool: BodyFetcher): ArticleSource {
  return {
    async fetch(messageId, { signal, into }) {
      const id = messageId.startsWith('<') ? messageId : `<${messageId}>`;
      // Decoding into the cache's recycled buffer spares a fresh 768 KB allocation (and its GC) per article.
      const article = await pool.body(id, { priority: 'stream', signal, into });
      return article.data;
    },
  };
}
