import type { ReaderClass } from './streams.wire.js';

/** What the starved rule reads of one open stream; pure data. */
export interface StarveFacts {
  readerClass: ReaderClass;
  /** size / duration in bytes per second; null when the duration is unknown. */
  mediaBitrateBps: number | null;
  /** Bytes per second delivered over the rate window (stream-session.ts RATE_WINDOW_MS). */
  rateBps: number;
  /** Where the last read ended, and the file's size. */
  offset: number;
  size: number;
  /** From open to now. */
  ageMs: number;
  /** The rate window's length. */
  windowMs: number;
  /** Time spent waiting for the network within the window: stalls that ended in it plus the wait in progress. */
  waitedMs: number;
}

/** A window with less waiting than this is not starved: the player got its bytes when it asked. */
export const STARVE_WAIT_MS = 1_000;

/**
 * A stream is starved when a player, whose file's bitrate is known, has been open a whole rate window, has not
 * reached the end of the file, got less than the media bitrate over that window, and waited for the network at least
 * STARVE_WAIT_MS in it. The wait tells a starved player from a paused one (a paused player asks for nothing, so
 * nothing waits) and from one whose own buffer is full (it reads slower than the bitrate but every read is answered
 * at once); a scanner is never starved (it plays nothing).
 */
export function isStarved(f: StarveFacts): boolean {
  if (f.readerClass !== 'player' || f.mediaBitrateBps === null || !(f.mediaBitrateBps > 0)) return false;
  if (f.offset >= f.size || f.ageMs < f.windowMs) return false;
  return f.rateBps < f.mediaBitrateBps && f.waitedMs >= STARVE_WAIT_MS;
}
