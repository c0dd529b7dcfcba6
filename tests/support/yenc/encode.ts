/**
 * Test-side yEnc encoding: turns file bytes into article bodies exactly as a Usenet poster would (=ybegin/=ypart,
 * 128-column lines, =yend with pcrc32), dot-stuffed for NNTP. The native encoder does the byte work.
 */
import { createRequire } from 'node:module';

interface NativeEncoder {
  encode(data: Uint8Array, lineSize?: number): Buffer;
  crc32(data: Uint8Array): Buffer;
}
const y = createRequire(import.meta.url)('yencode') as NativeEncoder;

export function crc32Hex(data: Uint8Array): string {
  return y.crc32(data).toString('hex');
}

export interface PartSpec {
  name: string;
  fileSize: number;
  /** 1-based part number; omit for a single-part post (no =ypart line). */
  part?: number;
  totalParts?: number;
  /** 0-based offset of `data` in the file. */
  offset: number;
  data: Uint8Array;
  lineLength?: number;
  /** Write this pcrc32 instead of the true one (to test corruption). */
  fakeCrc?: string;
  /** Declare a different =yend size. */
  fakeSize?: number;
}

/** One article body: header lines, encoded data and =yend, CRLF-terminated and dot-stuffed (no final "."). */
export function encodeArticleBody(spec: PartSpec): Buffer {
  const line = spec.lineLength ?? 128;
  const crc = spec.fakeCrc ?? crc32Hex(spec.data);
  const size = spec.fakeSize ?? spec.data.length;
  const multi = spec.part !== undefined;
  const head = multi
    ? `=ybegin part=${spec.part} total=${spec.totalParts ?? spec.part} line=${line} size=${spec.fileSize} name=${spec.name}\r\n` +
      `=ypart begin=${spec.offset + 1} end=${spec.offset + spec.data.length}\r\n`
    : `=ybegin line=${line} size=${spec.fileSize} name=${spec.name}\r\n`;
  const tail = multi
    ? `\r\n=yend size=${size} part=${spec.part} pcrc32=${crc}\r\n`
    : `\r\n=yend size=${size} crc32=${crc}\r\n`;
  // Names are posted as UTF-8, as posters do today.
  return Buffer.concat([Buffer.from(head, 'utf8'), dotStuff(y.encode(spec.data, line)), Buffer.from(tail, 'latin1')]);
}

/** NNTP dot-stuffing: a line starting with "." gets a second one. */
export function dotStuff(buf: Buffer): Buffer {
  const hits: number[] = [];
  if (buf[0] === 0x2e) hits.push(0);
  for (let at = buf.indexOf('\r\n.'); at >= 0; at = buf.indexOf('\r\n.', at + 3)) hits.push(at + 2);
  if (hits.length === 0) return buf;
  const out = Buffer.allocUnsafe(buf.length + hits.length);
  let src = 0;
  let dst = 0;
  for (const h of hits) {
    dst += buf.copy(out, dst, src, h);
    out[dst++] = 0x2e;
    src = h;
  }
  buf.copy(out, dst, src);
  return out;
}

export interface FilePart {
  part: number;
  offset: number;
  data: Buffer;
}

/** Cuts a file into article-sized parts (the last may be shorter). */
export function splitIntoParts(bytes: Buffer, articleSize: number): FilePart[] {
  const parts: FilePart[] = [];
  for (let offset = 0, part = 1; offset < bytes.length || part === 1; offset += articleSize, part++) {
    parts.push({ part, offset, data: bytes.subarray(offset, offset + articleSize) });
    if (bytes.length === 0) break;
  }
  return parts;
}
