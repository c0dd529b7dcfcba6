/**
 * The one file of the repair domain that calls appliance/par2 (docs/par2.md): reading a set from volumes, finding
 * damaged slices and solving. A change of the solver's API is an edit here only.
 */
import { Par2Error } from '../par2/errors.js';
import { readPar2Set, type Par2File, type Par2Set } from '../par2/set.js';
import { findDamagedSlices, repairSlices, type SliceReader } from '../par2/solve.js';

export type { Par2File, Par2Set, SliceReader };
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

/** The global slice indexes of bytes [start, end) of `file`. */
export function slicesOf(set: Par2Set, file: Par2File, start: number, end: number): number[] {
  const out: number[] = [];
  if (end <= start) return out;
  const first = Math.floor(start / set.sliceSize);
  const last = Math.min(file.sliceCount - 1, Math.floor((end - 1) / set.sliceSize));
  for (let s = first; s <= last; s++) out.push(file.firstSlice + s);
  return out;
}
