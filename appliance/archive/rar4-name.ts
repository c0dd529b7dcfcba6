/**
 * RAR 2.9/3.x file names (RAR 3.x technical notes, LHD_UNICODE): with the flag set, the name field is either UTF-8
 * (no zero byte in it) or an 8-bit name, a zero byte, and a compact Unicode encoding that patches the 8-bit name:
 * one high byte, then 2-bit opcodes (four per flag byte) for a low byte, a low byte under the high byte, a full
 * 16-bit char, or a run copied (optionally shifted) from the 8-bit name.
 */
const MAX_NAME_CHARS = 4096;

export function decodeRar4Name(field: Buffer, unicode: boolean): string {
  if (!unicode) return field.toString('latin1');
  const zero = field.indexOf(0);
  if (zero < 0) return field.toString('utf8');
  const name8 = field.subarray(0, zero);
  const enc = field.subarray(zero + 1);
  if (enc.length === 0) return name8.toString('latin1');
  const out: number[] = [];
  let pos = 0;
  const high = enc[pos++]! << 8;
  let flags = 0;
  let flagBits = 0;
  const byte = () => (pos < enc.length ? enc[pos++]! : -1);
  while (pos < enc.length && out.length < MAX_NAME_CHARS) {
    if (flagBits === 0) {
      flags = byte();
      flagBits = 8;
    }
    const op = flags >> 6;
    flags = (flags << 2) & 0xff;
    flagBits -= 2;
    if (op === 0) {
      const lo = byte();
      if (lo < 0) break;
      out.push(lo);
    } else if (op === 1) {
      const lo = byte();
      if (lo < 0) break;
      out.push(lo + high);
    } else if (op === 2) {
      const lo = byte();
      const hi = byte();
      if (hi < 0) break;
      out.push(lo + (hi << 8));
    } else {
      let length = byte();
      if (length < 0) break;
      if (length & 0x80) {
        const correction = byte();
        if (correction < 0) break;
        for (length = (length & 0x7f) + 2; length > 0 && out.length < name8.length; length--) {
          out.push(((name8[out.length]! + correction) & 0xff) + high);
        }
      } else {
        for (length += 2; length > 0 && out.length < name8.length; length--) out.push(name8[out.length]!);
      }
    }
  }
  return String.fromCharCode(...out);
}
