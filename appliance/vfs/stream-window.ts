import type { ReaderKind } from '../nntp/types.js';
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

/*
 * How a read spends the window. Every rule that decides how many articles a read puts in flight lives here; the
 * reader (reader.ts, range reads) and the sequential tracker behind a read handle (read-stream.ts) only apply them.
 * docs/streaming.md ("Seeks") says why each is what it is.
 */

/**
 * Articles an open-ended read starts with on top of the link's bandwidth-delay product, and how many more it may
 * have in flight per article consumed.
 */
export const RAMP_START = 3;
export const RAMP_STEP = 2;

/**
 * Articles an unproven read (below) keeps in flight: the one its consumer takes next and one more. Measured in the
 * contention bench's ten viewers (2026-11-28 18:40, a quiet machine; docs/performance.md): with 3 from byte 0 and 3
 * plus the link's bandwidth-delay product elsewhere, the forty probes' GETs cost the pool 212 MB for 97 MB handed to
 * their sockets and the slowest viewer started 1.81x its start alone; with 2, 169 MB and 1.42x, the viewers' start
 * alone unchanged (0.99-1.35 s); with 1, the viewers' start alone grew to 1.1-1.7 s.
 */
export const UNPROVEN_BURST = 2;

/**
 * Articles fetched ahead at once on a seek, beside the read itself (whose first article goes first), plus the
 * link's bandwidth-delay product: the next reads of a player that seeked are there one round trip later. The full
 * window follows once a read continues the stream, so a random probe (a scanner reading an index) costs a few
 * articles, not a window.
 */
export const SEEK_AHEAD = 4;

/**
 * Articles kept published behind the furthest one read: the kernel sends a file's reads a few at a time and out
 * of order, so a read can land just behind the reader. Anything older is retired (a late read there is a miss,
 * served by JS from the cache).
 */
export const RETIRE_SLACK = 2;

/**
 * A read to the end of the file (a player's open-ended range) may be dropped after a few hundred KiB: it starts
 * with a short window that widens as it is consumed, so a probe does not put a whole window of articles on the wire
 * ahead of the player's next request. A bounded range (or one of a few articles) is fetched at once.
 */
export function rampsUp(end: number, size: number, articles: number): boolean {
  return end >= size && articles > RAMP_START;
}

/**
 * Fetches a range read keeps in flight once `consumed` of its articles were taken, given the full window now.
 * The link's bandwidth-delay product (the window's part above the base) is in flight from the start: on a long
 * link a wave that waits for the first article costs a whole round trip. Not for a read from byte 0: a player's
 * first request reads the container header there and is dropped, and what it started competes with its next
 * request (the index at the end) for the link. It widens once the consumer has come back for the article after
 * next: the HTTP layer takes an article's bytes before the player has read them, so widening at the first one would
 * start fetches for a reader that is about to hang up.
 *
 * `unproven`: a read whose client has not yet shown it reads (a WebDAV GET whose socket has taken no more than a
 * connection holds unread, http/socket-hold.ts). Its fetches stay UNPROVEN_BURST ahead of what its socket took,
 * bounded range or not, and never widen: its consumer takes an article when the socket does, so a client that stopped
 * reading (a probe holding its GET open until its next one answers) stops costing the link once its connection is
 * full, and a client that reads is proven by it (docs/streaming.md, "What an unproven GET may fetch").
 */
export function rangeWorkers(
  full: number,
  ramped: boolean,
  fromByteZero: boolean,
  consumed: number,
  unproven = false,
): number {
  if (unproven) return Math.min(full, UNPROVEN_BURST);
  const start = RAMP_START + (fromByteZero ? 0 : linkShare(full));
  if (!ramped) return full;
  return Math.min(full, start + RAMP_STEP * Math.max(0, consumed - 1));
}

/**
 * Articles a handle reads ahead right after a read that seeked (or its first read, at byte 0: `probe`, a player
 * reading the container header, which it leaves for the index at the other end: the short read-ahead alone).
 */
export function seekReadAhead(probe: boolean, window: number): number {
  return probe ? SEEK_AHEAD : SEEK_AHEAD + linkShare(window);
}

/**
 * Articles a scanner's range read keeps in flight (a library scan's probe reads a head, a tail, an index: a few
 * hundred KiB to a few MiB), and what a scanner's FUSE handle reads ahead of a sequential read (none after a
 * seek): what a scanner would fetch ahead only competes with playback (docs/streaming.md, "Reader classes").
 */
export const SCANNER_WINDOW = 2;
export const SCANNER_READ_AHEAD = 1;

/**
 * The window of a range read by this reader once it consumed `consumed` articles. A scanner's is the article it
 * reads, and one more only once it has read a whole one: it never fetches ahead more than it has read (a probe
 * drops its request after a few KiB), and never more than SCANNER_WINDOW.
 */
export function readerWindow(reader: ReaderKind | undefined, window: number, consumed: number): number {
  return reader === 'scanner' ? Math.min(SCANNER_WINDOW, window, 1 + consumed) : window;
}
