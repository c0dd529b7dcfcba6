import type { LinkFacts } from '../nntp/pool.js';

/**
 * Articles a stream keeps in flight on a link measured as instant (loopback): the fixed window used before the
 * window adapted, where it was tuned (docs/performance.md). Slower links add their bandwidth-delay product.
 */
export const BASE_STREAM_WINDOW = 10;

/**
 * How many articles one stream fetches at once (a range read's fetches in flight, and a FUSE handle's read-ahead).
 * Enough to cover the link's bandwidth-delay product (what the providers deliver per ms while busy, times the
 * round trip, in articles) on top of the base window, so that a stream is not held to one window per round trip:
 * at 20 ms an 8 MiB read after a seek is asked for at once instead of in two waves.
 *
 * Bounded, in this order: never more than `streaming.max_download_workers` (docs/configuration.md: the most
 * fetches in flight per stream); the part above the base window never more than the providers can carry at once
 * (max_connections x pipeline depth) nor half of `streaming.max_cache_size_mb` (in-flight buffers count against
 * the cache, and a window larger than the cache would evict articles before they are read).
 */
export function streamWindow(maxWorkers: number, cacheBytes: number, link: LinkFacts | undefined): number {
  const cap = Math.max(1, maxWorkers);
  const base = Math.min(cap, BASE_STREAM_WINDOW);
  if (!link) return base;
  const bdp = Math.ceil((link.deliveryRate * link.rttMs) / link.bodyBytes);
  const room = Math.min(link.capacity, Math.floor(cacheBytes / 2 / link.bodyBytes));
  return Math.min(cap, Math.max(base, Math.min(base + bdp, room)));
}

/**
 * The part of a stream window above the base: what the link carries per round trip, in articles. A read that
 * seeks puts it in flight at once with its first articles (reader.ts, read-stream.ts), since a second wave would
 * wait a whole round trip.
 */
export function linkShare(window: number): number {
  return Math.max(0, window - BASE_STREAM_WINDOW);
}
