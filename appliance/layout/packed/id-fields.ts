import type { ByteReader, ByteWriter } from './bytes.js';
import { BitReader, BitWriter, LayoutCodecError } from './bytes.js';
import type { Piece } from './id-assemble.js';
import { MAX_DIGITS, type Token } from './id-template.js';
import { readInts, writeInts } from './int-column.js';

/**
 * The two stored kinds of a message-id field that vary (id-template.ts): `digits` (its numbers as number columns,
 * with their leading zeros) and `packed` (each character a symbol of the field's alphabet, chunks of symbols as
 * numbers below 2^24 in a bit stream).
 */

/** An id of a template longer than this is refused by the reader (guards the allocation a length asks for). */
export const MAX_PACKED_LENGTH = 65_536;
export const MAX_FIELDS = 4096;

export function writeDigits(w: ByteWriter, shape: readonly Token[], rows: readonly string[][], j: number): void {
  w.uint(shape.length);
  for (const t of shape) {
    if (t === null) w.byte(1);
    else {
      w.byte(0);
      w.string(t);
    }
  }
  const runs = rows.map((f) => f[j]!.match(/\d+/g) ?? []);
  shape
    .filter((t) => t === null)
    .forEach((_, k) => {
      writeInts(
        w,
        runs.map((r) => Number(r[k]!)),
      );
      // leading zeros: how many more digits than the number itself has
      writeInts(
        w,
        runs.map((r) => r[k]!.length - String(Number(r[k]!)).length),
      );
    });
}

export function readDigits(r: ByteReader, m: number): Piece[] {
  const shape: Token[] = Array.from({ length: r.count(MAX_FIELDS, 'token count') }, () =>
    r.byte() === 1 ? null : r.string(),
  );
  return shape.map((t) => {
    if (t !== null) return { text: t };
    const values = readInts(r, m);
    const pads = readInts(r, m);
    for (let k = 0; k < m; k++) {
      const v = values[k]!;
      const pad = pads[k]!;
      if (!(v >= 0 && v < 10 ** MAX_DIGITS && pad >= 0 && pad <= MAX_DIGITS)) {
        throw new LayoutCodecError(`number ${v} with ${pad} leading zeros in a message-id`);
      }
    }
    return { values, pads };
  });
}

/**
 * Symbols per chunk: as many as make one number below 2^24 (so the bit stream and the arithmetic stay in small
 * integers), and the bits a chunk of `count` symbols takes (the least b with 2^b >= size^count).
 */
function chunking(size: number): { per: number; bits: (count: number) => number } {
  if (size < 2) return { per: MAX_PACKED_LENGTH, bits: () => 0 };
  let per = 1;
  while (size ** (per + 1) <= 2 ** 24) per++;
  const table = [0];
  for (let count = 1; count <= per; count++) {
    const p = size ** count;
    let b = 0;
    while (2 ** b < p) b++;
    table.push(b);
  }
  return { per, bits: (count) => table[count]! };
}

export function writePacked(w: ByteWriter, values: readonly string[]): void {
  // every code point of the column in one array (a lone surrogate stands for itself)
  let total = 0;
  for (const v of values) total += v.length;
  const points = new Uint32Array(total);
  const lengths = new Float64Array(values.length);
  const bmp = new Uint8Array(0x10000);
  const astral = new Set<number>();
  let at = 0;
  values.forEach((v, k) => {
    const from = at;
    for (let i = 0; i < v.length; i++) {
      const c = v.codePointAt(i)!;
      if (c > 0xffff) {
        i++;
        astral.add(c);
      } else bmp[c] = 1;
      points[at++] = c;
    }
    lengths[k] = at - from;
  });
  const alphabet: number[] = [];
  for (let c = 0; c < 0x10000; c++) if (bmp[c]) alphabet.push(c);
  alphabet.push(...[...astral].sort((a, b) => a - b));
  const size = alphabet.length;
  const bmpIndex = new Int32Array(0x10000);
  const astralIndex = new Map<number, number>();
  alphabet.forEach((c, i) => (c > 0xffff ? astralIndex.set(c, i) : (bmpIndex[c] = i)));
  w.uint(size);
  let prev = 0;
  for (const c of alphabet) {
    w.uint(c - prev);
    prev = c;
  }
  writeInts(w, lengths);
  const { per, bits } = chunking(size);
  const out = new BitWriter(w);
  at = 0;
  for (let k = 0; k < values.length; k++) {
    const end = at + lengths[k]!;
    while (at < end) {
      const count = Math.min(per, end - at);
      let v = 0;
      let scale = 1;
      for (let i = 0; i < count; i++) {
        const c = points[at++]!;
        v += (c > 0xffff ? astralIndex.get(c)! : bmpIndex[c]!) * scale;
        scale *= size;
      }
      out.write(v, bits(count));
    }
  }
  out.flush();
}

export function readPacked(r: ByteReader, m: number): Piece {
  const size = r.count(0x110000, 'alphabet size');
  const alphabet = new Uint32Array(size);
  let c = 0;
  for (let i = 0; i < size; i++) {
    c += r.uint();
    if (c > 0x10ffff) throw new LayoutCodecError(`character ${c} in a message-id alphabet`);
    alphabet[i] = c;
  }
  const top = size === 0 ? 0 : alphabet[size - 1]!;
  const lengths = readInts(r, m);
  let total = 0;
  for (let k = 0; k < m; k++) {
    const length = lengths[k]!;
    if (!(length >= 0 && length <= MAX_PACKED_LENGTH)) throw new LayoutCodecError(`message-id length ${length}`);
    total += length;
  }
  if (total > 0 && size === 0) throw new LayoutCodecError('characters without an alphabet');
  // every character of the column into one array, then one string of it that the ids are slices of
  const codes = top < 0x100 ? new Uint8Array(total) : top < 0xd800 ? new Uint16Array(total) : new Uint32Array(total);
  const { per, bits } = chunking(size);
  const input = new BitReader(r);
  let at = 0;
  for (let k = 0; k < m; k++) {
    const end = at + lengths[k]!;
    while (at < end) {
      const count = Math.min(per, end - at);
      let v = input.read(bits(count));
      for (let i = 0; i < count; i++) {
        const sym = v % size;
        v = (v - sym) / size;
        codes[at++] = alphabet[sym]!;
      }
    }
  }
  input.align();
  const offsets = new Float64Array(m + 1);
  for (let k = 0; k < m; k++) offsets[k + 1] = offsets[k]! + lengths[k]!;
  return { codes, offsets };
}
