import { enableNullTermination, readKey, writeKey } from 'ordered-binary';

/**
 * The key encoding of `vfs-nodes`: lmdb-js's own (ordered-binary, so the bytes on disk are unchanged), read faster.
 * A node's key is `[parent, name]`; a listing reads the keys of every child, and ordered-binary builds each string
 * character by character in JavaScript, a cost a cold listing of 10,000 entries pays before the code is optimised
 * (~13 ms of CPU of a fresh process's scan, measured beside its value decode; docs/performance.md). A key of two
 * strings of plain ASCII (every byte 28-127 but the one 0 between them, which is all ordered-binary then writes:
 * no escape byte, no prefix) is read as two Latin-1 strings by Node itself; any other key goes to ordered-binary.
 */
export const NODE_KEYS = { writeKey, readKey: readNodeKey, enableNullTermination };

export function readNodeKey(bytes: Uint8Array, start: number, end: number): unknown {
  if (!Buffer.isBuffer(bytes)) return readKey(bytes, start, end);
  const buf = bytes;
  let separator = -1;
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b >= 28 && b < 0x80) continue;
    if (b !== 0 || separator !== -1) return readKey(bytes, start, end);
    separator = i;
  }
  if (separator <= start || separator >= end - 1) return readKey(bytes, start, end);
  return [buf.toString('latin1', start, separator), buf.toString('latin1', separator + 1, end)];
}
