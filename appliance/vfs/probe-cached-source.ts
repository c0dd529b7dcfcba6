import type { ArticleSource } from './article-fetcher.js';
import type { ProbeCache } from './probe-cache.js';

/**
 * `inner` (the pool) behind the probe cache (probe-cache.ts): an article the cache holds is read from disk and never
 * asked of a provider; one fetched with `keep` (a media file's probe article, probe-articles.ts) is kept on its
 * way to the reader. Everything else passes through unchanged. Bytes served from disk say so (`fromDisk`): an
 * article the health store marks unavailable and the cache still holds is served, but is no sign that a provider
 * has it again.
 */
export function probeCachedSource(cache: ProbeCache, inner: ArticleSource): ArticleSource {
  const fromDisk = new WeakSet<Uint8Array>();
  return {
    ...inner,
    async fetch(messageId, opts) {
      const held = cache.holds(messageId) ? await cache.get(messageId, opts.into) : undefined;
      if (held) {
        fromDisk.add(held);
        return held;
      }
      const data = await inner.fetch(messageId, opts);
      if (opts.keep) void cache.put(messageId, data); // the reader does not wait for the disk
      return data;
    },
    fromDisk: (data) => fromDisk.has(data),
  };
}
