/**
 * Names as text, shared by the domains that read names from bytes: nntp (the yEnc `name=`), http (a multipart
 * upload's file name) and nzb (cleaning every name that becomes a path).
 */

/**
 * Text of header bytes that carry names (the yEnc `name=`, a multipart upload's file name). Posters and
 * browsers send UTF-8 today; older posts used Latin-1. So every well-formed UTF-8 sequence is read as UTF-8 and
 * only a byte that starts no valid sequence is read as Latin-1 (overlong forms and UTF-16 surrogates are not
 * valid UTF-8). A name that is valid UTF-8 never turns into `AmÃ©lie`, and a Latin-1 name never into U+FFFD.
 */
export function textFromBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = utf8SequenceLength(bytes, i);
    if (n > 1) {
      out += Buffer.from(bytes.buffer, bytes.byteOffset + i, n).toString('utf8');
      i += n;
      continue;
    }
    let j = i + 1;
    // A run of ASCII or Latin-1 fallback bytes is appended in one go.
    while (j < bytes.length && utf8SequenceLength(bytes, j) <= 1) j++;
    out += Buffer.from(bytes.buffer, bytes.byteOffset + i, j - i).toString('latin1');
    i = j;
  }
  return out;
}

/** Length of the valid UTF-8 multi-byte sequence at `i`, 1 for ASCII or a byte that starts none. */
function utf8SequenceLength(b: Uint8Array, i: number): number {
  const lead = b[i]!;
  if (lead < 0x80) return 1;
  const cont = (k: number) => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
  if (lead >= 0xc2 && lead <= 0xdf) return cont(1) ? 2 : 1;
  if (lead >= 0xe0 && lead <= 0xef) {
    if (!cont(1) || !cont(2)) return 1;
    const second = b[i + 1]!;
    if (lead === 0xe0 && second < 0xa0) return 1; // overlong
    if (lead === 0xed && second >= 0xa0) return 1; // UTF-16 surrogate
    return 3;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 1;
    const second = b[i + 1]!;
    if (lead === 0xf0 && second < 0x90) return 1; // overlong
    if (lead === 0xf4 && second >= 0x90) return 1; // past U+10FFFF
    return 4;
  }
  return 1;
}

/**
 * C0, DEL, C1 and the invisible bidirectional/format controls that can make a name display as another
 * (e.g. U+202E turns `gpj.exe` around); never part of a name Spool shows or writes.
 */
// eslint-disable-next-line no-control-regex
export const NAME_CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A name from header bytes held in a byte-preserving ('latin1') string: decoded, control characters removed. */
export function nameFromHeader(latin1: string): string {
  return textFromBytes(Buffer.from(latin1, 'latin1')).replace(NAME_CONTROL_CHARS, '');
}
