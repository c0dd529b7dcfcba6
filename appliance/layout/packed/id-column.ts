import type { ByteReader } from './bytes.js';
import { BitReader, BitWriter, ByteWriter, LayoutCodecError } from './bytes.js';
import { readInts, writeInts } from './int-column.js';
import { findTemplate, MAX_DIGITS, type FieldKind, type IdTemplate, type Token } from './id-template.js';

/**
 * The message-ids of a layout, stored against their template (id-template.ts), or whole when no template pays.
 * Both are tried (the middle split at punctuation, and kept whole) and the shortest kept.
 */
const WHOLE = 0;
const TEMPLATE = 1;
/** An id of a template longer than this is refused by the reader (guards the allocation a length asks for). */
const MAX_PACKED_LENGTH = 65_536;
const MAX_FIELDS = 4096;

export function writeIds(w: ByteWriter, ids: readonly string[]): void {
  let best: ByteWriter | null = null;
  if (ids.length > 0 && ids.every((id) => id.length <= MAX_PACKED_LENGTH)) {
    for (const splitAt of [true, false]) {
      const template = findTemplate(ids, splitAt);
      const t = new ByteWriter();
      t.byte(TEMPLATE);
      writeTemplate(t, template, ids);
      if (!best || t.length < best.length) best = t;
      // kept whole only helps when punctuation varies between ids
      if (splitAt && (template.delimiters.length === 0 || template.split.every((f) => f !== null))) break;
    }
  }
  // every id whole costs at least its characters and a length each
  if (!best || best.length >= ids.reduce((sum, id) => sum + id.length + 1, 1)) {
    const whole = new ByteWriter();
    whole.byte(WHOLE);
    for (const id of ids) whole.string(id);
    if (!best || whole.length < best.length) best = whole;
  }
  w.bytes(best.finish());
}

export function readIds(r: ByteReader, n: number): string[] {
  const kind = r.byte();
  if (kind === WHOLE) return Array.from({ length: n }, () => r.string());
  if (kind !== TEMPLATE) throw new LayoutCodecError(`unknown message-id column kind ${kind}`);
  return readTemplate(r, n);
}

function writeTemplate(w: ByteWriter, t: IdTemplate, ids: readonly string[]): void {
  w.string(t.prefix);
  w.string(t.suffix);
  w.uint(t.delimiters.length);
  for (const d of t.delimiters) w.string(d);
  writeInts(
    w,
    t.split.map((f) => (f ? 0 : 1)),
  );
  const rows: string[][] = [];
  t.split.forEach((f, i) => {
    if (f) rows.push(f);
    else w.string(ids[i]!);
  });
  t.fields.forEach((kind, j) => writeField(w, kind, rows, j));
}

function readTemplate(r: ByteReader, n: number): string[] {
  const prefix = r.string();
  const suffix = r.string();
  const delimiters = Array.from({ length: r.count(MAX_FIELDS, 'field count') }, () => r.string());
  const whole = readInts(r, n);
  const out = new Array<string>(n);
  const rowsAt: number[] = [];
  for (let i = 0; i < n; i++) {
    if (whole[i] === 1) out[i] = r.string();
    else if (whole[i] === 0) rowsAt.push(i);
    else throw new LayoutCodecError(`row flag ${whole[i]}`);
  }
  const m = rowsAt.length;
  // the pieces of every id in order: text all ids share, or a column with one string per id
  const pieces: Piece[] = [prefix];
  for (let j = 0; j <= delimiters.length; j++) {
    pieces.push(...readField(r, m), j < delimiters.length ? delimiters[j]! : suffix);
  }
  // joined once per id: a flat string, no chain of concatenations kept alive
  const row = new Array<string>(pieces.length);
  for (let k = 0; k < m; k++) {
    for (let p = 0; p < pieces.length; p++) {
      const piece = pieces[p]!;
      row[p] = typeof piece === 'string' ? piece : piece[k]!;
    }
    out[rowsAt[k]!] = row.join('');
  }
  return out;
}

/** Text every id has at this place, or each id's own. */
type Piece = string | string[];

const CONST = 0;
const DIGITS = 1;
const PACKED = 2;

function writeField(w: ByteWriter, kind: FieldKind, rows: readonly string[][], j: number): void {
  if (kind.kind === 'const') {
    w.byte(CONST);
    w.string(kind.text);
  } else if (kind.kind === 'digits') {
    w.byte(DIGITS);
    writeDigits(w, kind.shape, rows, j);
  } else {
    w.byte(PACKED);
    writePacked(
      w,
      rows.map((f) => f[j]!),
    );
  }
}

function readField(r: ByteReader, m: number): Piece[] {
  const kind = r.byte();
  if (kind === CONST) return [r.string()];
  if (kind === DIGITS) return readDigits(r, m);
  if (kind === PACKED) return [readPacked(r, m)];
  throw new LayoutCodecError(`unknown field kind ${kind}`);
}

function writeDigits(w: ByteWriter, shape: readonly Token[], rows: readonly string[][], j: number): void {
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

function readDigits(r: ByteReader, m: number): Piece[] {
  const shape: Token[] = Array.from({ length: r.count(MAX_FIELDS, 'token count') }, () =>
    r.byte() === 1 ? null : r.string(),
  );
  return shape.map((t) => {
    if (t !== null) return t;
    const values = readInts(r, m);
    const pads = readInts(r, m);
    const column = new Array<string>(m);
    for (let k = 0; k < m; k++) {
      const v = values[k]!;
      const pad = pads[k]!;
      if (!(v >= 0 && v < 10 ** MAX_DIGITS && pad >= 0 && pad <= MAX_DIGITS)) {
        throw new LayoutCodecError(`number ${v} with ${pad} leading zeros in a message-id`);
      }
      column[k] = pad === 0 ? String(v) : '0'.repeat(pad) + String(v);
    }
    return column;
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

/** Code points of `s`, one at a time (a lone surrogate stands for itself). */
function eachPoint(s: string, visit: (c: number) => void): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    if (c > 0xffff) i++;
    visit(c);
    count++;
  }
  return count;
}

function writePacked(w: ByteWriter, values: readonly string[]): void {
  const seen = new Set<number>();
  const lengths = values.map((v) => eachPoint(v, (c) => seen.add(c)));
  const alphabet = [...seen].sort((a, b) => a - b);
  const size = alphabet.length;
  const index = new Map(alphabet.map((c, i) => [c, i]));
  w.uint(size);
  let prev = 0;
  for (const c of alphabet) {
    w.uint(c - prev);
    prev = c;
  }
  writeInts(w, lengths);
  const { per, bits } = chunking(size);
  const out = new BitWriter(w);
  let v = 0;
  let scale = 1;
  let count = 0;
  const put = (c: number) => {
    v += index.get(c)! * scale;
    scale *= size;
    if (++count === per) {
      out.write(v, bits(count));
      v = 0;
      scale = 1;
      count = 0;
    }
  };
  for (const value of values) {
    eachPoint(value, put);
    if (count > 0) out.write(v, bits(count));
    v = 0;
    scale = 1;
    count = 0;
  }
  out.flush();
}

function readPacked(r: ByteReader, m: number): string[] {
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
  const out = new Array<string>(m);
  const all = codes instanceof Uint32Array ? null : textOf(codes);
  at = 0;
  for (let k = 0; k < m; k++) {
    const end = at + lengths[k]!;
    out[k] = all !== null ? all.slice(at, end) : String.fromCodePoint(...codes.subarray(at, end));
    at = end;
  }
  return out;
}

const utf16 = new TextDecoder('utf-16le');
const textOf = (codes: Uint8Array | Uint16Array) =>
  codes instanceof Uint8Array
    ? Buffer.from(codes.buffer, codes.byteOffset, codes.length).toString('latin1')
    : utf16.decode(codes);
