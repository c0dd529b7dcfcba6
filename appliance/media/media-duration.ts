import { ByteWindow, ProbeGiveUp, type MediaBytes } from './byte-window.js';
import { isMatroska, matroskaDuration } from './matroska-duration.js';
import { isMp4, mp4Duration } from './mp4-duration.js';

export type { MediaBytes } from './byte-window.js';

/** A duration past this (four weeks) is not a real file's: a damaged header. */
const MAX_SECONDS = 28 * 24 * 3600;

/**
 * A media file's duration in seconds from its container's headers: Matroska/WebM (Segment Info) or MP4 (moov/mvhd);
 * undefined for any other format, a file that does not say, or bytes that are not what they claim. `head`: the
 * file's first bytes when the caller has them already (they are not read again). Reads at most PROBE_BUDGET_BYTES.
 * A failed read (an outage) rejects: the caller decides what it means; bad bytes never do.
 */
export async function mediaDuration(src: MediaBytes, head?: Uint8Array): Promise<number | undefined> {
  if (src.size < 16) return undefined;
  const w = new ByteWindow(src, head);
  try {
    const first = await w.bytes(0, 16);
    const seconds = isMatroska(first) ? await matroskaDuration(w) : isMp4(first) ? await mp4Duration(w) : undefined;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_SECONDS
      ? seconds
      : undefined;
  } catch (err) {
    if (err instanceof ProbeGiveUp || err instanceof RangeError) return undefined;
    throw err;
  }
}

/** File extensions worth probing (others are not read). */
export const MEDIA_EXTENSIONS = new Set(['mkv', 'webm', 'mk3d', 'mka', 'mp4', 'm4v', 'mov', 'm4a']);

export function isMediaName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && MEDIA_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}
