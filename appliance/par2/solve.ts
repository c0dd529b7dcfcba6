import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Par2Error } from './errors.js';
import { gfExp2, gfInv, gfMul, gfPow } from './gf16.js';
import { mulAdd } from './gf16-native.js';
import type { Par2Set } from './set.js';

/**
 * The Reed-Solomon solve of PAR 2.0 (docs/par2.md, "The math"). Input slice i (in the main packet's file order,
 * then slice order) has the constant c_i = 2^(n_i), n_i the i-th positive integer coprime to 65535 (divisible by
 * none of 3, 5, 17, 257). The recovery slice of exponent e is the sum over i of c_i^e * slice_i, word by word.
 */

/** Reads input slice `index` of the set (global index); null when it cannot be had. A short last slice is fine. */
export type SliceReader = (index: number) => Promise<Uint8Array | null>;

/** The logs n_i of the first `count` input constants. */
export function inputConstantLogs(count: number): number[] {
  const logs: number[] = [];
  for (let n = 1; logs.length < count; n++)
    if (n % 3 !== 0 && n % 5 !== 0 && n % 17 !== 0 && n % 257 !== 0) logs.push(n);
  return logs;
}

/** True when `data` (zero-padded to the slice size) matches the slice's MD5 and CRC32 from the set. */
export function sliceMatches(set: Par2Set, index: number, data: Uint8Array): boolean {
  const want = set.checksums[index];
  if (!want || data.length > set.sliceSize) return false;
  const padded = padToSlice(data, set.sliceSize);
  if (crc32(padded) >>> 0 !== want.crc32) return false;
  return createHash('md5').update(padded).digest().equals(want.md5);
}

/** The input slices that cannot be read or do not match their checksums, in index order. */
export async function findDamagedSlices(set: Par2Set, read: SliceReader): Promise<number[]> {
  const damaged: number[] = [];
  for (let i = 0; i < set.checksums.length; i++) {
    const data = await read(i);
    if (!data || !sliceMatches(set, i, data)) damaged.push(i);
  }
  return damaged;
}

/**
 * Rebuilds the `missing` input slices from the recovery slices and one pass over every other input slice (each
 * read once; memory beyond the k rebuilt slices is one slice). Each rebuilt slice is checked against its MD5 and
 * CRC32; the result holds the zero-padded slice (cut it to the file's length for the last slice of a file).
 */
export async function repairSlices(
  set: Par2Set,
  missing: readonly number[],
  read: SliceReader,
): Promise<Map<number, Buffer>> {
  const k = missing.length;
  const result = new Map<number, Buffer>();
  if (k === 0) return result;
  const exponents = [...set.recovery.keys()].sort((a, b) => a - b);
  if (k > exponents.length)
    throw new Par2Error('unrepairable', `cannot repair: ${k} slices missing, ${exponents.length} recovery slices`);
  const count = set.checksums.length;
  const logs = inputConstantLogs(count);
  const used = exponents.slice(0, k);
  // a[r][j] = c_{missing j}^{e_r}; solving a * x = (recovery - surviving contributions) gives the missing slices
  const a = used.map((e) => missing.map((m) => gfPow(gfExp2(logs[m]!), e)));
  const b = invert(a);
  const out = missing.map(() => Buffer.alloc(set.sliceSize));
  const scratch = Buffer.alloc(set.sliceSize);
  for (let j = 0; j < k; j++)
    for (let r = 0; r < k; r++) mulAdd(out[j]!, aligned(set.recovery.get(used[r]!)!, scratch), b[j]![r]!);
  const isMissing = new Set(missing);
  for (let i = 0; i < count; i++) {
    if (isMissing.has(i)) continue;
    const data = await read(i);
    if (!data)
      throw new Par2Error('unrepairable', `cannot repair: input slice ${i} became unreadable during the repair`);
    if (data.length > set.sliceSize)
      throw new Par2Error(
        'malformed',
        `input slice ${i} read as ${data.length} bytes, over the slice size ${set.sliceSize}`,
      );
    const slice = padInto(data, scratch);
    const c = gfExp2(logs[i]!);
    const powers = used.map((e) => gfPow(c, e));
    for (let j = 0; j < k; j++) {
      let factor = 0;
      for (let r = 0; r < k; r++) factor ^= gfMul(b[j]![r]!, powers[r]!);
      mulAdd(out[j]!, slice, factor);
    }
  }
  for (let j = 0; j < k; j++) {
    if (!sliceMatches(set, missing[j]!, out[j]!))
      throw new Par2Error('unrepairable', `rebuilt slice ${missing[j]} does not match its PAR2 checksums`);
    result.set(missing[j]!, out[j]!);
  }
  return result;
}

/** Gauss-Jordan inverse of a square matrix over GF(2^16); a singular one cannot repair this pattern of damage. */
export function invert(matrix: readonly (readonly number[])[]): number[][] {
  const n = matrix.length;
  const m = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    const pivot = m.findIndex((row, i) => i >= col && row[col] !== 0);
    if (pivot === -1) throw new Par2Error('unrepairable', 'cannot repair: the recovery slices give a singular system');
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const row = m[col]!;
    const inv = gfInv(row[col]!);
    for (let x = 0; x < 2 * n; x++) row[x] = gfMul(row[x]!, inv);
    for (let i = 0; i < n; i++) {
      const f = m[i]![col]!;
      if (i === col || f === 0) continue;
      const target = m[i]!;
      for (let x = 0; x < 2 * n; x++) target[x]! ^= gfMul(f, row[x]!);
    }
  }
  return m.map((row) => row.slice(n));
}

function padToSlice(data: Uint8Array, size: number): Uint8Array {
  if (data.length === size) return data;
  const padded = Buffer.alloc(size);
  padded.set(data);
  return padded;
}

/** `data` zero-padded into `scratch` unless it is already a whole, 4-byte aligned slice. */
function padInto(data: Uint8Array, scratch: Buffer): Uint8Array {
  if (data.length === scratch.length && data.byteOffset % 4 === 0) return data;
  scratch.fill(0);
  scratch.set(data);
  return scratch;
}

function aligned(data: Buffer, scratch: Buffer): Uint8Array {
  return padInto(data, scratch);
}
