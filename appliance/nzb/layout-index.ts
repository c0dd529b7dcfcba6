import type { FileLayout } from './layout.js';

/** Index of the segment holding byte `offset`, or -1 when the offset is outside the file. O(log n), no I/O. */
export function findSegment(layout: FileLayout, offset: number): number {
  const starts = layout.starts;
  if (!(offset >= 0 && offset < layout.size)) return -1;
  let lo = 0;
  let hi = starts.length - 2; // last segment index
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Decoded byte range [start, end) of segment `index`. */
export function segmentRange(layout: FileLayout, index: number): { start: number; end: number } {
  return { start: layout.starts[index]!, end: layout.starts[index + 1]! };
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
  return { first: findSegment(layout, start), last: findSegment(layout, stop - 1) };
}

/** One layout for a file joined from split pieces: the pieces' bytes follow each other in order. */
export function concatLayouts(layouts: readonly FileLayout[]): FileLayout {
  if (layouts.length === 1) return layouts[0]!;
  const n = layouts.reduce((sum, l) => sum + l.messageIds.length, 0);
  const starts = new Float64Array(n + 1);
  const numbers = new Uint32Array(n);
  const encodedBytes = new Uint32Array(n);
  const messageIds: string[] = [];
  const parts: FileLayout['parts'] = [];
  let at = 0;
  let base = 0;
  for (const layout of layouts) {
    const count = layout.messageIds.length;
    for (let i = 0; i < count; i++) starts[at + i] = base + layout.starts[i]!;
    numbers.set(layout.numbers, at);
    encodedBytes.set(layout.encodedBytes, at);
    for (const id of layout.messageIds) messageIds.push(id);
    for (const part of layout.parts) parts.push({ ...part, firstSegment: part.firstSegment + at });
    at += count;
    base += layout.size;
  }
  starts[n] = base;
  return { size: base, starts, messageIds, numbers, encodedBytes, parts };
}
