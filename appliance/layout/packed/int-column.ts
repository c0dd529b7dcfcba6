import type { ByteReader } from './bytes.js';
import { BitReader, BitWriter, ByteWriter, LayoutCodecError, ZIGZAG_LIMIT } from './bytes.js';

/**
 * A column of numbers (one per segment, or per message-id field), stored in the smallest of a few forms:
 *
 * - patched frame of reference: a base and a bit width; values in [base, base + 2^width) are bit-packed as
 *   `value - base`, the others listed as exceptions (index, value). Width 0 with no exceptions is a constant (every
 *   article the same size); width 0 with a few exceptions is "the common value and where it differs" (the last
 *   article). Either on the values or on their differences (`number=` 1, 2, 3... is a constant difference of 1).
 * - raw float64, for anything not a whole number within 2^51 (never in a real layout; kept exact anyway).
 */
const RAW = 0;
const VALUES = 1;
const DELTAS = 2;

/** Values tried when choosing a width; a longer column is sampled evenly. */
const SAMPLE = 2048;
/** Rough cost of one exception in bytes (index gap + value). */
const EXCEPTION_COST = 4;

export function writeInts(w: ByteWriter, values: ArrayLike<number>): void {
  const n = values.length;
  if (!allSafeInts(values)) {
    w.byte(RAW);
    for (let i = 0; i < n; i++) w.f64(values[i]!);
    return;
  }
  const deltas = new Float64Array(n);
  for (let i = 0; i < n; i++) deltas[i] = values[i]! - (i > 0 ? values[i - 1]! : 0);
  const a = new ByteWriter();
  writePatched(a, values);
  const b = new ByteWriter();
  writePatched(b, deltas);
  const [kind, best] = a.length <= b.length ? [VALUES, a] : [DELTAS, b];
  w.byte(kind);
  w.bytes(best.finish());
}

export function readInts(r: ByteReader, n: number): Float64Array {
  const kind = r.byte();
  const out = new Float64Array(n);
  if (kind === RAW) {
    for (let i = 0; i < n; i++) out[i] = r.f64();
    return out;
  }
  if (kind !== VALUES && kind !== DELTAS) throw new LayoutCodecError(`unknown number column kind ${kind}`);
  readPatched(r, out);
  if (kind === DELTAS) for (let i = 1; i < n; i++) out[i] = out[i]! + out[i - 1]!;
  for (let i = 0; i < n; i++) {
    if (Math.abs(out[i]!) > Number.MAX_SAFE_INTEGER) throw new LayoutCodecError('a number column overflows');
  }
  return out;
}

function allSafeInts(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v) || Math.abs(v) > ZIGZAG_LIMIT / 2) return false;
  }
  return true;
}

function writePatched(w: ByteWriter, xs: ArrayLike<number>): void {
  const { base, width } = chooseFrame(xs);
  const limit = 2 ** width;
  const exceptions: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    const off = xs[i]! - base;
    if (!(off >= 0 && off < limit)) exceptions.push(i);
  }
  w.sint(base);
  w.byte(width);
  w.uint(exceptions.length);
  let prev = -1;
  for (const i of exceptions) {
    w.uint(i - prev - 1);
    w.sint(xs[i]!);
    prev = i;
  }
  if (width === 0) return;
  const bits = new BitWriter(w);
  let e = 0;
  for (let i = 0; i < xs.length; i++) {
    if (exceptions[e] === i) e++;
    else bits.write(xs[i]! - base, width);
  }
  bits.flush();
}

function readPatched(r: ByteReader, out: Float64Array): void {
  const n = out.length;
  const base = r.sint();
  const width = r.byte();
  if (width > 52) throw new LayoutCodecError(`bit width ${width}`);
  const count = r.count(n, 'exception count');
  const isException = count > 0 ? new Uint8Array(n) : null;
  let prev = -1;
  for (let k = 0; k < count; k++) {
    const i = prev + 1 + r.uint();
    if (i >= n) throw new LayoutCodecError(`exception at row ${i} of ${n}`);
    out[i] = r.sint();
    isException![i] = 1;
    prev = i;
  }
  if (width === 0) {
    for (let i = 0; i < n; i++) if (!isException?.[i]) out[i] = base;
    return;
  }
  const bits = new BitReader(r);
  for (let i = 0; i < n; i++) if (!isException?.[i]) out[i] = base + bits.read(width);
}

/** The base and width that make the column smallest, judged on an even sample of it. */
function chooseFrame(xs: ArrayLike<number>): { base: number; width: number } {
  const n = xs.length;
  if (n === 0) return { base: 0, width: 0 };
  const step = Math.max(1, Math.floor(n / SAMPLE));
  const sample: number[] = [];
  for (let i = 0; i < n; i += step) sample.push(xs[i]!);
  sample.sort((a, b) => a - b);
  const m = sample.length;
  const span = sample[m - 1]! - sample[0]!;
  const maxWidth = span === 0 ? 0 : Math.min(52, Math.ceil(Math.log2(span + 1)));
  let best = { base: sample[0]!, width: maxWidth, cost: Infinity };
  for (let width = 0; width <= maxWidth; width++) {
    // the window [v, v + 2^width) holding the most sampled values
    const limit = 2 ** width;
    let hi = 0;
    let bestCount = 0;
    let bestBase = sample[0]!;
    for (let lo = 0; lo < m; lo++) {
      if (hi < lo) hi = lo;
      while (hi + 1 < m && sample[hi + 1]! - sample[lo]! < limit) hi++;
      if (hi - lo + 1 > bestCount) {
        bestCount = hi - lo + 1;
        bestBase = sample[lo]!;
      }
    }
    const cost = (bestCount * width) / 8 + (m - bestCount) * EXCEPTION_COST;
    if (cost < best.cost) best = { base: bestBase, width, cost };
  }
  return { base: best.base, width: best.width };
}
