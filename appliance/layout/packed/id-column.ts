import type { ByteReader } from './bytes.js';
import { ByteWriter, LayoutCodecError } from './bytes.js';
import { readInts, writeInts } from './int-column.js';
import { assemble, type Piece } from './id-assemble.js';
import { readDigits, readPacked, writeDigits, writePacked } from './id-fields.js';
import { findTemplate, type FieldKind, type IdTemplate } from './id-template.js';

/**
 * The message-ids of a layout, stored against their template (id-template.ts), or whole when no template pays.
 * Both are tried (the middle split at punctuation, and kept whole) and the shortest kept.
 */
const WHOLE = 0;
const TEMPLATE = 1;
import { MAX_FIELDS, MAX_PACKED_LENGTH } from './id-fields.js';

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
  // the pieces of every id in order: text all ids share, or a column with one value per id
  const pieces: Piece[] = [{ text: prefix }];
  for (let j = 0; j <= delimiters.length; j++) {
    pieces.push(...readField(r, m), { text: j < delimiters.length ? delimiters[j]! : suffix });
  }
  const ids = assemble(pieces, m);
  for (let k = 0; k < m; k++) out[rowsAt[k]!] = ids[k]!;
  return out;
}

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
  if (kind === CONST) return [{ text: r.string() }];
  if (kind === DIGITS) return readDigits(r, m);
  if (kind === PACKED) return [readPacked(r, m)];
  throw new LayoutCodecError(`unknown field kind ${kind}`);
}
