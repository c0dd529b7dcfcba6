import { invalid } from './archive.types.js';

/**
 * An LZMA decoder (Igor Pavlov's LZMA specification: range coder, literal/match/rep states, bit-tree lengths and
 * distances), only for 7z headers: 7-Zip compresses the header of every archive, `-mx0` included. Headers are
 * small, so the output is one buffer of the size the archive states and the dictionary is that buffer.
 */
const PROB_INIT = 1024;
const STATES = 12;
const POS_BITS_MAX = 4;
const END_POS_MODEL = 14;
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;
/** A header larger than this is not a release's header; refusing it bounds memory on hostile input. */
export const MAX_LZMA_OUTPUT = 64 * 1024 * 1024;

class RangeDecoder {
  private range = 0xffffffff;
  private code = 0;
  private pos: number;
  constructor(private readonly input: Uint8Array) {
    if (input.length < 5 || input[0] !== 0) throw invalid('the compressed 7z header does not start a range coder');
    this.pos = 1;
    for (let i = 0; i < 4; i++) this.code = ((this.code << 8) | input[this.pos++]!) >>> 0;
  }
  private next(): number {
    if (this.pos >= this.input.length) throw invalid('the compressed 7z header ends early');
    return this.input[this.pos++]!;
  }
  private normalize(): void {
    if (this.range < 0x1000000) {
      this.range = (this.range << 8) >>> 0;
      this.code = ((this.code << 8) | this.next()) >>> 0;
    }
  }
  bit(probs: Uint16Array, i: number): number {
    const p = probs[i]!;
    const bound = (this.range >>> 11) * p;
    let bit: number;
    if (this.code < bound) {
      probs[i] = p + ((2048 - p) >>> 5);
      this.range = bound;
      bit = 0;
    } else {
      probs[i] = p - (p >>> 5);
      this.code -= bound;
      this.range -= bound;
      bit = 1;
    }
    this.normalize();
    return bit;
  }
  direct(n: number): number {
    let res = 0;
    for (let i = 0; i < n; i++) {
      this.range >>>= 1;
      const bit = this.code >= this.range ? 1 : 0;
      if (bit) this.code -= this.range;
      this.normalize();
      res = res * 2 + bit;
    }
    return res;
  }
  tree(probs: Uint16Array, base: number, bits: number): number {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) + this.bit(probs, base + m);
    return m - (1 << bits);
  }
  reverse(probs: Uint16Array, base: number, bits: number): number {
    let m = 1;
    let sym = 0;
    for (let i = 0; i < bits; i++) {
      const b = this.bit(probs, base + m);
      m = (m << 1) + b;
      sym |= b << i;
    }
    return sym;
  }
}

const probs = (n: number) => new Uint16Array(n).fill(PROB_INIT);

class LenDecoder {
  private readonly choice = probs(2);
  private readonly low = probs(16 << 3);
  private readonly mid = probs(16 << 3);
  private readonly high = probs(256);
  decode(rc: RangeDecoder, posState: number): number {
    if (rc.bit(this.choice, 0) === 0) return rc.tree(this.low, posState << 3, 3);
    if (rc.bit(this.choice, 1) === 0) return 8 + rc.tree(this.mid, posState << 3, 3);
    return 16 + rc.tree(this.high, 0, 8);
  }
}

/** Decodes `size` bytes of raw LZMA (7z coder properties: lc/lp/pb byte + dictionary size) from `input`. */
export function lzmaDecode(properties: Uint8Array, input: Uint8Array, size: number): Buffer {
  if (properties.length < 5) throw invalid('the 7z header is LZMA-compressed with short coder properties');
  let d = properties[0]!;
  if (d >= 9 * 5 * 5) throw invalid('the 7z header has bad LZMA properties');
  const lc = d % 9;
  d = Math.floor(d / 9);
  const lp = d % 5;
  const pb = Math.floor(d / 5);
  if (!(size >= 0 && size <= MAX_LZMA_OUTPUT)) throw invalid(`the 7z header claims ${size} bytes once unpacked`);
  const out = Buffer.alloc(size);
  const rc = new RangeDecoder(input);
  const literal = probs(0x300 << (lc + lp));
  const isMatch = probs(STATES << POS_BITS_MAX);
  const isRep = probs(STATES);
  const isRepG0 = probs(STATES);
  const isRepG1 = probs(STATES);
  const isRepG2 = probs(STATES);
  const isRep0Long = probs(STATES << POS_BITS_MAX);
  const posSlot = probs(4 << 6);
  const posDecoders = probs(1 + FULL_DISTANCES - END_POS_MODEL);
  const align = probs(1 << ALIGN_BITS);
  const lenDecoder = new LenDecoder();
  const repLenDecoder = new LenDecoder();
  let state = 0;
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  let pos = 0;
  const pbMask = (1 << pb) - 1;
  const lpMask = (1 << lp) - 1;
  while (pos < size) {
    const posState = pos & pbMask;
    if (rc.bit(isMatch, (state << POS_BITS_MAX) + posState) === 0) {
      const prev = pos > 0 ? out[pos - 1]! : 0;
      const base = 0x300 * (((pos & lpMask) << lc) + (prev >>> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        let matchByte = out[pos - rep0 - 1]!;
        while (symbol < 0x100) {
          const matchBit = (matchByte >>> 7) & 1;
          matchByte <<= 1;
          const bit = rc.bit(literal, base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | bit;
          if (matchBit !== bit) break;
        }
      }
      while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(literal, base + symbol);
      out[pos++] = symbol - 0x100;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len: number;
    if (rc.bit(isRep, state) !== 0) {
      if (pos === 0) throw invalid('the compressed 7z header repeats before any byte');
      if (rc.bit(isRepG0, state) === 0) {
        if (rc.bit(isRep0Long, (state << POS_BITS_MAX) + posState) === 0) {
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1]!;
          pos++;
          continue;
        }
      } else {
        let dist: number;
        if (rc.bit(isRepG1, state) === 0) dist = rep1;
        else {
          if (rc.bit(isRepG2, state) === 0) dist = rep2;
          else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = repLenDecoder.decode(rc, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = lenDecoder.decode(rc, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(rc, len, posSlot, posDecoders, align);
      if (rep0 === 0xffffffff) break; // end marker
    }
    len += 2;
    if (rep0 >= pos) throw invalid('the compressed 7z header refers back past its start');
    for (let i = 0; i < len && pos < size; i++, pos++) out[pos] = out[pos - rep0 - 1]!;
  }
  if (pos !== size) throw invalid(`the compressed 7z header unpacks to ${pos} bytes, not ${size}`);
  return out;
}

function distance(
  rc: RangeDecoder,
  len: number,
  posSlot: Uint16Array,
  posDecoders: Uint16Array,
  align: Uint16Array,
): number {
  const lenState = Math.min(len, 3);
  const slot = rc.tree(posSlot, lenState << 6, 6);
  if (slot < 4) return slot;
  const directBits = (slot >>> 1) - 1;
  const base = (2 | (slot & 1)) * 2 ** directBits;
  if (slot < END_POS_MODEL) return base + rc.reverse(posDecoders, base - slot, directBits);
  return base + rc.direct(directBits - ALIGN_BITS) * 16 + rc.reverse(align, 0, ALIGN_BITS);
}
