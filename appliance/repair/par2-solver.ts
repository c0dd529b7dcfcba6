/**
 * The one file of the repair domain that calls appliance/par2 (docs/par2.md): reading a set from volumes, finding
 * damaged slices and solving. A change of the solver's API is an edit here only.
 */
import { Par2Error } from '../par2/errors.js';
import { readPar2Set, type Par2File, type Par2Set } from '../par2/set.js';
import { findDamagedSlices, repairSlices, type SliceReader } from '../par2/solve.js';
import { scanRecoverySlices, type RecoveryScan } from '../par2/locate.js';
import {
  repairSlicesStreaming,
  DEFAULT_REPAIR_MEMORY,
  type StripSink,
  type StripSource,
} from '../par2/stream-solve.js';
import type { Piscina } from 'piscina';
import { createPar2StripPool, mulAddIn } from '../../workers/par2-strip.client.js';
import { findIn, type FileLayout } from '../layout/index.js';
import type { LayoutRangeReader } from './layout-bytes.js';

export type { Par2File, Par2Set, SliceReader, StripSink, StripSource };
export { DEFAULT_REPAIR_MEMORY };
export { Par2Error };

/** Reads and cross-checks a recovery set from the bytes of its .par2 files (index and recovery volumes). */
export function readSet(volumes: readonly Uint8Array[]): Par2Set {
  return readPar2Set(volumes);
}

/** The input slices that cannot be read or fail their PAR2 checksums (one pass over the whole set). */
export function damagedSlices(set: Par2Set, read: SliceReader): Promise<number[]> {
  return findDamagedSlices(set, read);
}

/** Rebuilds `missing` (global slice indexes), each checked against its PAR2 MD5 and CRC32; zero-padded slices. */
export function solve(set: Par2Set, missing: readonly number[], read: SliceReader): Promise<Map<number, Buffer>> {
  return repairSlices(set, missing, read);
}

/**
 * The recovery slices of a kept volume, scanned through the pool (docs/par2.md "Recovery slices in damaged volumes"):
 * packet headers read by range, the volume's missing articles skipped piece by piece, each packet's MD5 checked.
 */
export function scanRecovery(
  reader: LayoutRangeReader,
  layout: FileLayout,
  size: number,
  set: Par2Set,
): Promise<RecoveryScan> {
  const segs = layout.segments;
  const pieceOf = (offset: number) => {
    const seg = segs[findIn(segs, offset)];
    return seg ? { start: seg.start, end: seg.end } : { start: offset, end: offset + 1 };
  };
  return scanRecoverySlices((at, n) => reader.read(layout, at, at + n), size, set.setId, set.sliceSize, { pieceOf });
}

let stripPool: Piscina | undefined;

/**
 * The streaming solve (docs/par2.md "Streaming repair") within `memoryBytes` of strips, its multiply-adds in the
 * repair domain's one worker thread (workers/par2-strip.task.ts) with each strip's buffers moved, not copied, so
 * the event loop stays free. Rebuilt strips go to `sink`; they are provisional until the promise resolves.
 */
export function solveStreaming(
  set: Par2Set,
  exponents: readonly number[],
  missing: readonly number[],
  source: StripSource,
  sink: StripSink,
  memoryBytes: number,
): Promise<void> {
  stripPool ??= createPar2StripPool();
  return repairSlicesStreaming(set, exponents, missing, source, sink, { memoryBytes, mulAdd: mulAddIn(stripPool) });
}

/** The global slice indexes of bytes [start, end) of `file`. */
export function slicesOf(set: Par2Set, file: Par2File, start: number, end: number): number[] {
  const out: number[] = [];
  if (end <= start) return out;
  const first = Math.floor(start / set.sliceSize);
  const last = Math.min(file.sliceCount - 1, Math.floor((end - 1) / set.sliceSize));
  for (let s = first; s <= last; s++) out.push(file.firstSlice + s);
  return out;
}
