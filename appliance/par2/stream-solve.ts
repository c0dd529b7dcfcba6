import { createHash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Par2Error } from './errors.js';
import { gfExp2, gfMul, gfPow } from './gf16.js';
import { mulAddMany } from './gf16-native.js';
import type { Par2Set } from './set.js';
import { inputConstantLogs, invert } from './solve.js';

/**
 * The PAR2 solve in bounded memory (docs/par2.md, "Streaming repair"): the slices are cut into column strips (bytes
 * [o, o + S) of every slice) and each strip of the rebuilt slices is the same linear combination of the same strip
 * of the recovery slices and of the surviving input slices, so one pass per strip needs only k rebuilt strips and a
 * few input strips in memory, whatever the size of the set. Each input byte is read once over all passes.
 */
export interface StripSource {
  /**
   * Bytes [offset, offset + length) of input slice `index` (global index). Fewer when the slice's file ends inside
   * the range (the rest counts as zeros, as in PAR2's padding); null when they cannot be read.
   */
  readInput(index: number, offset: number, length: number): Promise<Uint8Array | null>;
  /** Bytes [offset, offset + length) of the data of the recovery slice `exponent`: all of them, or null. */
  readRecovery(exponent: number, offset: number, length: number): Promise<Uint8Array | null>;
}

/**
 * Takes each rebuilt strip, in order of offset for each slice: bytes [offset, offset + bytes.length) of input slice
 * `index`, zero-padded past its file's end. Provisional until repairSlicesStreaming resolves: a rebuilt slice whose
 * MD5 or CRC32 does not match rejects it. The bytes are reused after the sink returns (or its promise settles).
 */
export type StripSink = (index: number, offset: number, bytes: Uint8Array) => void | Promise<void>;

export interface StreamRepairOptions {
  /** Bytes of strips held at once: the k rebuilt strips plus two batches of source strips. Default 48 MiB. */
  memoryBytes?: number;
  /** Source strips (recovery or input) read concurrently and multiplied in one call. Default 8. */
  batch?: number;
  /**
   * Runs each multiply-add elsewhere (a worker thread): it may take the regions' ArrayBuffers (transfer them) and
   * resolves with views of the same lengths holding the result. Default: `mulAddMany` on this thread.
   */
  mulAdd?: AsyncMulAdd;
}

/** dsts[j] ^= sum over b of factors[j * srcs.length + b] * srcs[b], answering the regions (possibly moved). */
export type AsyncMulAdd = (
  dsts: Uint8Array[],
  srcs: Uint8Array[],
  factors: Uint16Array,
) => Promise<{ dsts: Uint8Array[]; srcs: Uint8Array[] }>;

export const DEFAULT_REPAIR_MEMORY = 48 * 2 ** 20;
const MIN_STRIP = 4096;
/** Bytes of per-input factors kept across passes (beyond it they are computed again each pass). */
const FACTOR_CACHE = 16 * 2 ** 20;

/** The strip size for k rebuilt slices: a multiple of 4, at most the slice, within the memory budget. */
export function stripBytes(sliceSize: number, k: number, options: StreamRepairOptions = {}): number {
  const memory = options.memoryBytes ?? DEFAULT_REPAIR_MEMORY;
  const held = k + 2 * (options.batch ?? 8);
  const fit = Math.floor(memory / held / 4) * 4;
  return Math.min(sliceSize, Math.max(MIN_STRIP, fit));
}

/**
 * Rebuilds the `missing` input slices from the recovery slices `exponents` (those available; the lowest k are
 * used) and every other input slice, strip by strip, handing the rebuilt bytes to `sink` and checking each rebuilt
 * slice against its MD5 and CRC32 at the end. Throws a Par2Error: 'unrepairable' for too few recovery slices, a
 * singular system, a source that cannot be read, or a rebuilt slice that fails its checksums.
 */
export async function repairSlicesStreaming(
  set: Pick<Par2Set, 'sliceSize' | 'checksums'>,
  exponents: readonly number[],
  missing: readonly number[],
  source: StripSource,
  sink: StripSink,
  options: StreamRepairOptions = {},
): Promise<void> {
  const k = missing.length;
  if (k === 0) return;
  const count = set.checksums.length;
  if (new Set(missing).size !== k || missing.some((m) => !Number.isInteger(m) || m < 0 || m >= count))
    throw new RangeError(`missing slices must be distinct indexes below ${count}: ${missing.join(', ')}`);
  const used = [...new Set(exponents)].sort((a, b) => a - b).slice(0, k);
  if (used.length < k)
    throw new Par2Error('unrepairable', `cannot repair: ${k} slices missing, ${used.length} recovery slices`);
  const { sources, inputFactors } = solveSources(count, used, missing);

  const size = set.sliceSize;
  const strip = stripBytes(size, k, options);
  const batch = Math.max(1, options.batch ?? 8);
  let out = missing.map(() => Buffer.allocUnsafeSlow(strip));
  const buffers = [0, 1].map(() => Array.from({ length: batch }, () => Buffer.allocUnsafeSlow(strip)));
  const md5s: Hash[] = missing.map(() => createHash('md5'));
  const crcs = missing.map(() => 0);
  for (let offset = 0; offset < size; offset += strip) {
    const length = Math.min(strip, size - offset);
    let rebuilt = out.map((o) => o.subarray(0, length).fill(0));
    const read = (from: number, into: Buffer[]) =>
      readBatch(sources.slice(from, from + batch), source, offset, length, into);
    let next = read(0, buffers[0]!);
    next.catch(() => undefined); // awaited below; this only keeps a batch that fails while we compute from going unhandled
    for (let from = 0, turn = 0; from < sources.length; from += batch, turn ^= 1) {
      const strips = await next;
      if (from + batch < sources.length) {
        next = read(from + batch, buffers[turn ^ 1]!);
        next.catch(() => undefined);
      }
      const group = sources.slice(from, from + batch);
      const factors = new Uint16Array(k * group.length);
      group.forEach((s, g) => {
        const f = s.factors ?? inputFactors(s.input!);
        for (let j = 0; j < k; j++) factors[j * group.length + g] = f[j]!;
      });
      if (!options.mulAdd) {
        mulAddMany(rebuilt, strips, factors);
        continue;
      }
      // the regions may come back as views of moved buffers: take them back as ours
      const done = await options.mulAdd(rebuilt, strips, factors);
      rebuilt = done.dsts.map(asBuffer);
      out = rebuilt.map(whole);
      done.srcs.forEach((s, g) => (buffers[turn]![g] = whole(s)));
    }
    for (let j = 0; j < k; j++) {
      md5s[j]!.update(rebuilt[j]!);
      crcs[j] = crc32(rebuilt[j]!, crcs[j]!);
      await sink(missing[j]!, offset, rebuilt[j]!);
    }
  }
  for (let j = 0; j < k; j++) {
    const want = set.checksums[missing[j]!]!;
    if (crcs[j]! >>> 0 !== want.crc32 || !md5s[j]!.digest().equals(want.md5))
      throw new Par2Error('unrepairable', `rebuilt slice ${missing[j]} does not match its PAR2 checksums`);
  }
}

/**
 * The sources of every pass of a solve: the k recovery slices `used` (each with its column of the inverted matrix),
 * then each surviving input slice, whose factors `inputFactors` computes (k^2 multiplies per slice, kept after the
 * first pass when count * k words fit FACTOR_CACHE).
 */
function solveSources(
  count: number,
  used: readonly number[],
  missing: readonly number[],
): { sources: Source[]; inputFactors: (i: number) => Uint16Array } {
  const k = missing.length;
  const logs = inputConstantLogs(count);
  const b = invert(used.map((e) => missing.map((m) => gfPow(gfExp2(logs[m]!), e))));
  const isMissing = new Set(missing);
  const sources: Source[] = used.map((e, r) => ({ recovery: e, factors: Uint16Array.from(b, (row) => row[r]!) }));
  for (let i = 0; i < count; i++) if (!isMissing.has(i)) sources.push({ input: i, factors: null });
  const cached = count * k * 2 <= FACTOR_CACHE ? new Map<number, Uint16Array>() : null;
  const inputFactors = (i: number): Uint16Array => {
    const hit = cached?.get(i);
    if (hit) return hit;
    const powers = used.map((e) => gfPow(gfExp2(logs[i]!), e));
    const f = Uint16Array.from(b, (row) => row.reduce((acc, x, r) => acc ^ gfMul(x, powers[r]!), 0));
    cached?.set(i, f);
    return f;
  };
  return { sources, inputFactors };
}

function asBuffer(v: Uint8Array): Buffer<ArrayBuffer> {
  return Buffer.from(v.buffer as ArrayBuffer, v.byteOffset, v.byteLength);
}

/** The whole buffer a strip view was cut from (each strip buffer is its own ArrayBuffer). */
function whole(v: Uint8Array): Buffer<ArrayBuffer> {
  return Buffer.from(v.buffer as ArrayBuffer, 0, v.buffer.byteLength);
}

interface Source {
  recovery?: number;
  input?: number;
  /** Per rebuilt slice, for a recovery source; input factors are computed when their strip is used. */
  factors: Uint16Array | null;
}

/** The strips of `group`, each zero-padded to `length` in its own buffer of `into`; read concurrently. */
async function readBatch(
  group: Source[],
  source: StripSource,
  offset: number,
  length: number,
  into: Buffer[],
): Promise<Buffer[]> {
  return Promise.all(
    group.map(async (s, g) => {
      const what = s.recovery !== undefined ? `recovery slice ${s.recovery}` : `input slice ${s.input}`;
      const data =
        s.recovery !== undefined
          ? await source.readRecovery(s.recovery, offset, length)
          : await source.readInput(s.input!, offset, length);
      if (!data) throw new Par2Error('unrepairable', `cannot repair: ${what} became unreadable during the repair`);
      if (data.length > length || (s.recovery !== undefined && data.length !== length))
        throw new Par2Error('malformed', `${what}: read ${data.length} bytes at ${offset} for ${length}`);
      const strip = into[g]!.subarray(0, length);
      strip.set(data);
      strip.fill(0, data.length);
      return strip;
    }),
  );
}
