import type { FileLayout, LayoutSegment } from './layout.types.js';

/** Index of the segment holding byte `offset`, or -1 outside the file. O(log n), no I/O. */
export function findSegment(layout: FileLayout, offset: number): number {
  if (!(offset >= 0 && offset < layout.size)) return -1;
  return findIn(layout.segments, offset);
}

/** Index of the segment holding `pos` in segments that tile a file in order (no bounds check). */
export function findIn(segments: readonly LayoutSegment[], pos: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (segments[mid]!.start <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The segments a read of bytes [start, end) touches, as an inclusive index range; null for an empty or
 * out-of-file range. A reader fetches exactly these articles and trims the first and last.
 */
export function segmentsForRange(
  layout: FileLayout,
  start: number,
  end: number,
): { first: number; last: number } | null {
  const stop = Math.min(end, layout.size);
  if (!(start >= 0 && start < stop)) return null;
  return { first: findIn(layout.segments, start), last: findIn(layout.segments, stop - 1) };
}
