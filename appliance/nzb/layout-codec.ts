import { endianness } from 'node:os';
import type { FileLayout } from './layout.js';
import type { NzbFile } from './types.js';

/**
 * Binary form of a FileLayout for LMDB, little-endian:
 *   "SPL1" | u32 n | f64 size | u32 partsJsonBytes | u32 idsBytes
 *   | u32[n] decoded article sizes | u32[n] segment numbers | u32[n] encoded bytes | parts JSON | ids joined by "\n"
 * Article sizes (4 bytes each) rather than offsets (8) halve the numbers; prefix sums on decode cost under a
 * millisecond for 70,000 articles. Message-ids cannot contain "\n" (the parser refuses whitespace in them).
 */
const MAGIC = 0x314c5053; // "SPL1" read as a little-endian u32
const HEADER = 24;

if (endianness() !== 'LE') throw new Error('layout-codec assumes a little-endian host (x64, arm64)');

export class LayoutDecodeError extends Error {
  override readonly name = 'LayoutDecodeError';
}

export function encodeLayout(layout: FileLayout): Buffer {
  const n = layout.messageIds.length;
  const sizes = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const size = layout.starts[i + 1]! - layout.starts[i]!;
    if (!(size >= 0 && size <= 0xffffffff)) throw new RangeError(`article ${i + 1} spans ${size} bytes`);
    sizes[i] = size;
  }
  const parts = Buffer.from(JSON.stringify(layout.parts), 'utf8');
  const ids = Buffer.from(layout.messageIds.join('\n'), 'utf8');
  const out = Buffer.allocUnsafe(HEADER + 12 * n + parts.length + ids.length);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(n, 4);
  out.writeDoubleLE(layout.size, 8);
  out.writeUInt32LE(parts.length, 16);
  out.writeUInt32LE(ids.length, 20);
  let at = HEADER;
  for (const array of [sizes, layout.numbers, layout.encodedBytes]) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, n * 4), at);
    at += n * 4;
  }
  parts.copy(out, at);
  ids.copy(out, at + parts.length);
  return out;
}

/** Reverses encodeLayout. Copies out of `data`, so the source buffer may be reused (LMDB's fast reads do). */
export function decodeLayout(data: Uint8Array): FileLayout {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < HEADER || buf.readUInt32LE(0) !== MAGIC) throw new LayoutDecodeError('not a Spool file layout');
  const n = buf.readUInt32LE(4);
  const size = buf.readDoubleLE(8);
  const partsBytes = buf.readUInt32LE(16);
  const idsBytes = buf.readUInt32LE(20);
  if (buf.length !== HEADER + 12 * n + partsBytes + idsBytes)
    throw new LayoutDecodeError('layout record has the wrong length');
  const readU32s = (at: number) => {
    const array = new Uint32Array(n);
    new Uint8Array(array.buffer).set(buf.subarray(at, at + n * 4));
    return array;
  };
  const sizes = readU32s(HEADER);
  const numbers = readU32s(HEADER + 4 * n);
  const encodedBytes = readU32s(HEADER + 8 * n);
  const starts = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) starts[i + 1] = starts[i]! + sizes[i]!;
  if (starts[n] !== size) throw new LayoutDecodeError('layout article sizes do not sum to the file size');
  const at = HEADER + 12 * n;
  const parts = JSON.parse(buf.toString('utf8', at, at + partsBytes)) as FileLayout['parts'];
  const messageIds = n === 0 ? [] : buf.toString('utf8', at + partsBytes, at + partsBytes + idsBytes).split('\n');
  if (messageIds.length !== n) throw new LayoutDecodeError('layout message-id count does not match');
  return { size, starts, messageIds, numbers, encodedBytes, parts };
}

/** The posted files a layout was built from, for `toNzbXml` (GET /api/files/export-nzb) without the original NZB. */
export function layoutToNzbFiles(layout: FileLayout): NzbFile[] {
  return layout.parts.map((part, p) => {
    const end = layout.parts[p + 1]?.firstSegment ?? layout.messageIds.length;
    const segments = [];
    for (let i = part.firstSegment; i < end; i++) {
      segments.push({ number: layout.numbers[i]!, bytes: layout.encodedBytes[i]!, messageId: layout.messageIds[i]! });
    }
    const { poster, date, subject, groups } = part;
    return { poster, date, subject, groups, segments, missingCount: 0, missingNumbers: [], duplicatesDropped: 0 };
  });
}
