import type { FilePatches, PatchPiece, PatchRange, PatchStore } from './repair.port.js';

/**
 * What every patch store does the same way (docs/health.md "PAR2 repair"), whatever holds the bytes: where a
 * writer's ranges sit in its blob, which committed range serves a byte, how a new patch merges with a file's older
 * ones, and which records a removal or a move touches.
 */

/** The ranges of one new blob: each file range's bytes follow the previous one's in the blob. */
export function planBlob(
  blob: string,
  wanted: readonly { start: number; end: number }[],
): { ranges: PatchRange[]; bytes: number } {
  const ranges: PatchRange[] = [];
  let bytes = 0;
  for (const r of wanted) {
    ranges.push({ start: r.start, end: r.end, blob, offset: bytes });
    bytes += r.end - r.start;
  }
  return { ranges, bytes };
}

/** The range a write of `length` bytes at file offset `start` falls in, or a RangeError. */
export function rangeOf(ranges: readonly PatchRange[], start: number, length: number): PatchRange {
  const r = ranges.find((x) => x.start <= start && start + length <= x.end);
  if (!r) throw new RangeError(`bytes ${start}-${start + length - 1} are outside the patch's ranges`);
  return r;
}

/** True when the committed ranges of `p` cover every byte of [start, end). */
export function coversSpan(p: FilePatches | undefined, start: number, end: number): boolean {
  if (!p) return false;
  let at = start;
  for (const r of p.ranges) if (r.start <= at && r.end > at) at = r.end;
  return at >= end;
}

/** The pieces of blobs that serve [start, end) of a file, in file order; throws where no range covers a byte. */
export function spansOf(
  p: FilePatches | undefined,
  layoutId: string,
  start: number,
  end: number,
): { at: number; blob: string; offset: number; length: number }[] {
  const out: { at: number; blob: string; offset: number; length: number }[] = [];
  let at = start;
  for (const r of p?.ranges ?? []) {
    if (at >= end) break;
    if (r.start > at || r.end <= at) continue;
    const to = Math.min(end, r.end);
    out.push({ at, blob: r.blob, offset: r.offset + at - r.start, length: to - at });
    at = to;
  }
  if (at < end) throw new Error(`no patch covers bytes ${at}-${end - 1} of layout ${layoutId}`);
  return out;
}

/** A file's record once a new patch is committed. Newer ranges first: where two repairs overlap, the later bytes win. */
export function mergePatch(
  before: FilePatches | undefined,
  layoutId: string,
  path: string,
  ranges: readonly PatchRange[],
  bytes: number,
  at: number,
): FilePatches {
  return {
    layoutId,
    path,
    ranges: [...ranges, ...(before?.ranges ?? [])].sort((a, b) => a.start - b.start),
    bytes: (before?.bytes ?? 0) + bytes,
    at,
  };
}

/** True when `path` is one of `roots` or lies under one of them. */
export function isUnder(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(root.endsWith('/') ? root : root + '/'));
}

/** Where `path` goes when `from` moves to `to`, or null when the move does not touch it. */
export function movedPath(path: string, from: string, to: string): string | null {
  return path === from ? to : path.startsWith(from + '/') ? to + path.slice(from.length) : null;
}

/** The first part of `ranges` no write covered, or null when every byte was written. */
export function firstGap(
  ranges: readonly PatchRange[],
  written: readonly [number, number][],
): { start: number; end: number } | null {
  const sorted = [...written].sort((a, b) => a[0] - b[0]);
  for (const r of ranges) {
    let at = r.start;
    for (const [a, b] of sorted) {
      if (a > at) break;
      if (b > at) at = b;
      if (at >= r.end) break;
    }
    if (at < r.end) return { start: at, end: r.end };
  }
  return null;
}

/** `PatchStore.add` on any store: one writer for the pieces' ranges, every piece written, then committed (or aborted). */
export async function addPieces(
  store: Pick<PatchStore, 'open'>,
  layoutId: string,
  path: string,
  pieces: readonly PatchPiece[],
): Promise<void> {
  if (pieces.length === 0) return;
  const w = await store.open(
    layoutId,
    path,
    pieces.map((p) => ({ start: p.start, end: p.start + p.data.length })),
  );
  try {
    for (const piece of pieces) await w.write(piece.start, piece.data);
  } catch (err) {
    await w.abort();
    throw err;
  }
  await w.commit();
}
