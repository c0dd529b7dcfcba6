import { endianness } from 'node:os';

/**
 * GF(2^16) as PAR 2.0 defines it (docs/par2.md, "The math"): elements are 16-bit words, addition is XOR, and
 * multiplication is modulo the generator polynomial x^16 + x^12 + x^3 + x + 1 (0x1100B), whose root 2 generates
 * the multiplicative group of order 65535.
 */
export const GF16_POLYNOMIAL = 0x1100b;
const ORDER = 65535;

/** log[x] for x != 0; exp[i] = 2^i for i in 0..2*ORDER (doubled so a sum of two logs needs no modulo). */
const log = new Uint16Array(65536);
const exp = new Uint16Array(2 * ORDER + 1);
{
  let x = 1;
  for (let i = 0; i < ORDER; i++) {
    exp[i] = x;
    log[x] = i;
    x <<= 1;
    if (x & 0x10000) x ^= GF16_POLYNOMIAL;
  }
  for (let i = ORDER; i <= 2 * ORDER; i++) exp[i] = exp[i - ORDER]!;
}

export function gfMul(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  return exp[log[a]! + log[b]!]!;
}

export function gfInv(a: number): number {
  if (a === 0) throw new RangeError('0 has no inverse in GF(2^16)');
  return exp[ORDER - log[a]!]!;
}

/** 2^n, n any non-negative integer. */
export function gfExp2(n: number): number {
  return exp[n % ORDER]!;
}

/** a^e for a non-negative integer e. */
export function gfPow(a: number, e: number): number {
  if (e === 0) return 1;
  if (a === 0) return 0;
  return exp[(log[a]! * (e % ORDER)) % ORDER]!;
}

const littleEndian = endianness() === 'LE';
const lo = new Uint16Array(256);
const hi = new Uint16Array(256);

/**
 * dst ^= factor * src over whole slices of little-endian 16-bit words (both lengths equal and a multiple of 4).
 * Per call, two 256-entry tables hold factor times each low byte and each high byte, so a word costs two look-ups
 * and an XOR; on a little-endian host two words are done per 32-bit load when both views are 4-byte aligned.
 */
export function mulAdd(dst: Uint8Array, src: Uint8Array, factor: number): void {
  if (dst.length !== src.length || dst.length % 4 !== 0)
    throw new RangeError(`mulAdd needs equal lengths that are multiples of 4 (${dst.length}, ${src.length})`);
  if (factor === 0) return;
  const lf = log[factor]!;
  lo[0] = 0;
  hi[0] = 0;
  for (let b = 1; b < 256; b++) {
    lo[b] = exp[lf + log[b]!]!;
    hi[b] = exp[lf + log[b << 8]!]!;
  }
  if (littleEndian && dst.byteOffset % 4 === 0 && src.byteOffset % 4 === 0) {
    const d = new Uint32Array(dst.buffer, dst.byteOffset, dst.length >>> 2);
    const s = new Uint32Array(src.buffer, src.byteOffset, src.length >>> 2);
    for (let i = 0; i < s.length; i++) {
      const w = s[i]!;
      d[i]! ^= (lo[w & 0xff]! ^ hi[(w >>> 8) & 0xff]!) | ((lo[(w >>> 16) & 0xff]! ^ hi[w >>> 24]!) << 16);
    }
    return;
  }
  for (let i = 0; i < src.length; i += 2) {
    const p = lo[src[i]!]! ^ hi[src[i + 1]!]!;
    dst[i]! ^= p & 0xff;
    dst[i + 1]! ^= p >>> 8;
  }
}
