/**
 * Message-ids put back together from their template's pieces (id-column.ts). When every piece is Latin-1 (nearly
 * always: ids are ASCII), the characters of all ids go into one buffer and one string, and each id is a slice of it:
 * no string per piece, no number formatted through `String`. Otherwise each id is joined from its pieces.
 */
export type Piece =
  /** Text every id has at this place. */
  | { text: string }
  /** A number per id, written with `pads` leading zeros. */
  | { values: Float64Array; pads: Float64Array }
  /** Characters per id: id k is codes[offsets[k] .. offsets[k + 1]). */
  | { codes: Uint8Array | Uint16Array | Uint32Array; offsets: Float64Array };

const isLatin1 = (s: string) => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
};

export function assemble(pieces: readonly Piece[], m: number): string[] {
  const narrow = pieces.every((p) =>
    'text' in p ? isLatin1(p.text) : 'codes' in p ? p.codes instanceof Uint8Array : true,
  );
  return narrow ? assembleLatin1(pieces, m) : assembleJoined(pieces, m);
}

const POW10 = Array.from({ length: 17 }, (_, d) => 10 ** d);
const digitsOf = (v: number) => {
  let d = 1;
  while (d < 16 && v >= POW10[d]!) d++;
  return d;
};

const TEXT = 0;
const NUMBER = 1;
const CHARS = 2;

function assembleLatin1(pieces: readonly Piece[], m: number): string[] {
  // one monomorphic description per piece, so the loop below reads plain arrays
  const count = pieces.length;
  const kinds = new Uint8Array(count);
  const texts: Buffer[] = [];
  const values: Float64Array[] = [];
  const pads: Float64Array[] = [];
  const codes: Uint8Array[] = [];
  const offsets: Float64Array[] = [];
  const none = new Float64Array(0);
  let total = 0;
  pieces.forEach((p, i) => {
    texts.push('text' in p ? Buffer.from(p.text, 'latin1') : Buffer.alloc(0));
    values.push('values' in p ? p.values : none);
    pads.push('values' in p ? p.pads : none);
    codes.push('codes' in p ? (p.codes as Uint8Array) : new Uint8Array(0));
    offsets.push('codes' in p ? p.offsets : none);
    kinds[i] = 'text' in p ? TEXT : 'values' in p ? NUMBER : CHARS;
    if ('text' in p) total += texts[i]!.length * m;
    else if ('codes' in p) total += p.codes.length;
    else for (let k = 0; k < m; k++) total += p.pads[k]! + digitsOf(p.values[k]!);
  });
  const buf = new Uint8Array(total);
  const ends = new Float64Array(m);
  let at = 0;
  for (let k = 0; k < m; k++) {
    for (let i = 0; i < count; i++) {
      const kind = kinds[i];
      if (kind === TEXT) {
        const t = texts[i]!;
        for (let c = 0; c < t.length; c++) buf[at++] = t[c]!;
      } else if (kind === CHARS) {
        const from = offsets[i]![k]!;
        const to = offsets[i]![k + 1]!;
        const source = codes[i]!;
        for (let c = from; c < to; c++) buf[at++] = source[c]!;
      } else {
        for (let z = pads[i]![k]!; z > 0; z--) buf[at++] = 48;
        let v = values[i]![k]!;
        const d = digitsOf(v);
        for (let j = at + d - 1; j >= at; j--) {
          const digit = v % 10;
          buf[j] = 48 + digit;
          v = (v - digit) / 10;
        }
        at += d;
      }
    }
    ends[k] = at;
  }
  const all = Buffer.from(buf.buffer, 0, total).toString('latin1');
  const out = new Array<string>(m);
  for (let k = 0, from = 0; k < m; k++) {
    out[k] = all.slice(from, ends[k]);
    from = ends[k]!;
  }
  return out;
}

const utf16 = new TextDecoder('utf-16le');

function assembleJoined(pieces: readonly Piece[], m: number): string[] {
  const columns = pieces.map((p): string | string[] => {
    if ('text' in p) return p.text;
    const out = new Array<string>(m);
    for (let k = 0; k < m; k++) {
      if ('values' in p) out[k] = '0'.repeat(p.pads[k]!) + String(p.values[k]!);
      else {
        const chars = p.codes.subarray(p.offsets[k]!, p.offsets[k + 1]!);
        out[k] =
          chars instanceof Uint32Array
            ? String.fromCodePoint(...chars)
            : chars instanceof Uint16Array
              ? utf16.decode(chars)
              : Buffer.from(chars.buffer, chars.byteOffset, chars.length).toString('latin1');
      }
    }
    return out;
  });
  const row = new Array<string>(columns.length);
  const out = new Array<string>(m);
  for (let k = 0; k < m; k++) {
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!;
      row[i] = typeof c === 'string' ? c : c[k]!;
    }
    out[k] = row.join('');
  }
  return out;
}
