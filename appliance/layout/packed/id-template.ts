/**
 * How a file's message-ids are shaped, found from the ids themselves (id-column.ts stores them against it).
 * Posting tools write ids from a pattern: `part12of3456.AbCdEf@host`, `1700000000.123456.1@poster.local`,
 * `<40 random hex>@ngPost.com`. The template is a prefix and a suffix every id shares, and a middle split at its
 * punctuation into fields; each field is stored as one of
 *
 * - `const`: the same text in every id (a per-file random part);
 * - `digits`: the same text with numbers in it (`12of3456`): each number is a number column (consecutive parts
 *   cost nothing);
 * - `packed`: anything else (random ids): each character as a symbol of the field's own alphabet, bit-packed
 *   (40 hex characters in 20 bytes).
 *
 * An id that does not fit (another prefix, other punctuation, a field of another shape) is stored whole.
 */

export type FieldKind = { kind: 'const'; text: string } | { kind: 'digits'; shape: Token[] } | { kind: 'packed' };

/** A piece of a `digits` field: literal text, or a number (null). */
export type Token = string | null;

export interface IdTemplate {
  prefix: string;
  suffix: string;
  /** The punctuation between fields, in order (one fewer than fields). */
  delimiters: string[];
  fields: FieldKind[];
  /** Per id: its fields, or null when the id is stored whole. */
  split: (string[] | null)[];
}

/** Ids looked at to find the template; the rest are only checked against it. */
const SAMPLE = 64;
/** Longer digit runs are not numbers we can hold exactly. */
export const MAX_DIGITS = 15;
/** Punctuation: ASCII that is not a letter or digit. */
const isDelimiter = (c: number) => c < 0x80 && !(c >= 48 && c <= 57) && !(c >= 65 && c <= 90) && !(c >= 97 && c <= 122);

const sampleOf = (ids: readonly string[]) => {
  const step = Math.max(1, Math.floor(ids.length / SAMPLE));
  const out: string[] = [];
  for (let i = 0; i < ids.length; i += step) out.push(ids[i]!);
  if (ids.length > 0) out.push(ids[ids.length - 1]!);
  return out;
};

function commonPrefix(xs: readonly string[]): string {
  let p = xs[0] ?? '';
  for (const x of xs) while (!x.startsWith(p)) p = p.slice(0, -1);
  // never end inside a number (`part1` of `part10`..`part19`) or between the halves of a surrogate pair
  return p.replace(/\d+$/, '').replace(/[\ud800-\udbff]$/, '');
}

function commonSuffix(xs: readonly string[], prefixLength: number): string {
  let s = xs[0] ?? '';
  for (const x of xs) while (!x.endsWith(s) || x.length - s.length < prefixLength) s = s.slice(1);
  return s.replace(/^\d+/, '').replace(/^[\udc00-\udfff]/, '');
}

function mode<T>(xs: readonly T[], key: (x: T) => string): T | undefined {
  const counts = new Map<string, { x: T; n: number }>();
  let best: { x: T; n: number } | undefined;
  for (const x of xs) {
    const k = key(x);
    const c = counts.get(k) ?? { x, n: 0 };
    c.n++;
    counts.set(k, c);
    if (!best || c.n > best.n) best = c;
  }
  return best?.x;
}

/** Splits a middle at punctuation (`splitAt` false: one field). */
function fieldsOf(middle: string, splitAt: boolean): { fields: string[]; delimiters: string[] } {
  if (!splitAt) return { fields: [middle], delimiters: [] };
  const fields: string[] = [];
  const delimiters: string[] = [];
  let from = 0;
  for (let i = 0; i < middle.length; i++) {
    if (isDelimiter(middle.charCodeAt(i))) {
      fields.push(middle.slice(from, i));
      delimiters.push(middle[i]!);
      from = i + 1;
    }
  }
  fields.push(middle.slice(from));
  return { fields, delimiters };
}

/** The tokens of a field (numbers as null), or null when a digit run is too long to hold as a number. */
export function shapeOf(field: string): Token[] | null {
  const out: Token[] = [];
  for (const run of field.match(/\d+|\D+/g) ?? []) {
    if (/^\d/.test(run)) {
      if (run.length > MAX_DIGITS) return null;
      out.push(null);
    } else out.push(run);
  }
  return out;
}

/** Fields with the same key have the same text between their numbers (no field with NUL gets a shape). */
const shapeKey = (field: string) =>
  field.includes('\u0000') || /\d{16}/.test(field) ? null : field.replace(/\d+/g, '\u0000');

export function findTemplate(ids: readonly string[], splitAt: boolean): IdTemplate {
  const sample = sampleOf(ids);
  const prefix = commonPrefix(sample);
  const suffix = commonSuffix(sample, prefix.length);
  const middleOf = (id: string) =>
    id.length >= prefix.length + suffix.length && id.startsWith(prefix) && id.endsWith(suffix)
      ? id.slice(prefix.length, id.length - suffix.length)
      : null;
  const sampled = sample.map(middleOf).filter((m): m is string => m !== null);
  const delimiters =
    mode(
      sampled.map((m) => fieldsOf(m, splitAt).delimiters),
      (d) => d.join('\u0000'),
    ) ?? ([] as string[]);
  const signature = delimiters.join('\u0000');
  const split: (string[] | null)[] = ids.map((id) => {
    const m = middleOf(id);
    if (m === null) return null;
    const f = fieldsOf(m, splitAt);
    return f.delimiters.join('\u0000') === signature ? f.fields : null;
  });
  const avgLength = sample.reduce((a, s) => a + s.length, 2) / Math.max(1, sample.length);
  const fields = Array.from({ length: delimiters.length + 1 }, (_, j) => chooseField(split, j, avgLength));
  return { prefix, suffix, delimiters, fields, split };
}

/** Decides field `j`'s kind and drops (sets null) the ids that do not fit it. */
function chooseField(split: (string[] | null)[], j: number, avgLength: number): FieldKind {
  const values: string[] = [];
  for (const f of split) if (f) values.push(f[j]!);
  if (values.length === 0) return { kind: 'packed' };
  const sample = sampleOf(values);
  const constant = mode(sample, (s) => s)!;
  const key = mode(sample.map(shapeKey), String) ?? null;
  let constMisfits = 0;
  let shapeMisfits = 0;
  for (const v of values) {
    if (v !== constant) constMisfits++;
    if (key !== null && shapeKey(v) !== key) shapeMisfits++;
  }
  const alphabet = new Set<string>();
  let chars = 0;
  for (const v of sample) {
    for (const c of v) alphabet.add(c);
    chars += v.length;
  }
  const packedCost =
    ((chars / sample.length) * values.length * Math.log2(Math.max(2, alphabet.size))) / 8 + values.length / 4;
  const constCost = constMisfits * avgLength;
  const shape = key === null ? null : shapeOf(sample.find((v) => shapeKey(v) === key)!);
  const digitTokens = shape ? shape.filter((t) => t === null).length : 0;
  const digitsCost = shape ? shapeMisfits * avgLength + (values.length * digitTokens) / 2 : Infinity;
  let kind: FieldKind = { kind: 'packed' };
  let fits: (v: string) => boolean = () => true;
  if (constCost <= digitsCost && constCost <= packedCost) {
    kind = { kind: 'const', text: constant };
    fits = (v) => v === constant;
  } else if (digitsCost <= packedCost && shape) {
    kind = { kind: 'digits', shape };
    fits = (v) => shapeKey(v) === key;
  }
  for (let i = 0; i < split.length; i++) if (split[i] && !fits(split[i]![j]!)) split[i] = null;
  return kind;
}
