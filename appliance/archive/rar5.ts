import { createDecipheriv } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Cursor, readUpTo } from './bytes.js';
import {
  invalid,
  type ArchiveEntry,
  type ByteSource,
  type MemberEncryption,
  type VolumeScan,
} from './archive.types.js';
import { KeyRing } from './crypto.js';
import { MAX_ARCHIVE_MEMBERS, tooManyMembers } from './limits.js';

/**
 * RAR 5.0 volume headers (rarlab's "RAR 5.0 archive format" technote). A block is CRC32 | vint header size |
 * header (type, flags, [extra size], [data size], type fields, extra area) | data. The CRC covers the header from
 * the size field on. Only headers are read: the data of a member is skipped by its size, so a volume costs the
 * articles its headers lie in (usually just the first).
 */
export const RAR5_SIGNATURE = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00]);

const enum Type {
  Main = 1,
  File = 2,
  Service = 3,
  Crypt = 4,
  End = 5,
}
const HF_EXTRA = 0x1;
const HF_DATA = 0x2;
const HF_SPLIT_BEFORE = 0x8;
const HF_SPLIT_AFTER = 0x10;
/** The technote bounds a header at 2 MB; anything larger is damage, and reading it would cost many articles. */
const MAX_HEADER = 2 * 1024 * 1024;

export interface Rar5Block {
  type: number;
  flags: number;
  /** Offsets in the volume: the block's first byte, its data's first byte, and the byte after its data. */
  start: number;
  dataStart: number;
  dataEnd: number;
  /** The header's type-specific fields and extra area, as a cursor (positioned after the data size). */
  body: Cursor;
  extraStart: number;
  headerEnd: number;
}

/**
 * Reads the block at `pos` of `source` (two small reads: the size, then the whole header). With `headerKey` (after
 * an archive encryption header) each header is a 16-byte IV and the header AES-256-CBC encrypted, zero-padded to
 * whole blocks; the data area after it is not encrypted by this (members have their own encryption records).
 */
export async function readRar5Block(
  source: ByteSource,
  pos: number,
  volume: string,
  headerKey?: Buffer,
): Promise<Rar5Block> {
  const where = `the RAR5 header at byte ${pos} of ${volume}`;
  const skip = headerKey ? 16 : 0;
  const open = async (at: number, length: number, iv?: Buffer): Promise<Buffer> => {
    const raw = await source.read(at, length);
    if (!headerKey || !iv) return raw;
    return createDecipheriv('aes-256-cbc', headerKey, iv).setAutoPadding(false).update(raw);
  };
  if (pos + skip + 16 > source.size && headerKey) throw invalid(`${where} is truncated`);
  const iv = headerKey ? await source.read(pos, 16) : undefined;
  const head = headerKey ? await open(pos + 16, 16, iv) : await readUpTo(source, pos, 7);
  const sizeCursor = new Cursor(head, 4, head.length, where);
  const headerSize = sizeCursor.vint();
  const length = sizeCursor.at + headerSize;
  const stored = headerKey ? Math.ceil(length / 16) * 16 : length;
  const headerEnd = pos + skip + stored;
  if (headerSize < 2 || headerSize > MAX_HEADER) {
    throw invalid(`${where} claims a ${headerSize}-byte header${headerKey ? ' (a wrong password?)' : ''}`);
  }
  if (headerEnd > source.size) throw invalid(`${where} is truncated (the volume ends at byte ${source.size})`);
  const buf = (await open(pos + skip, stored, iv)).subarray(0, length);
  if (crc32(buf.subarray(4)) !== buf.readUInt32LE(0)) {
    throw invalid(`${where} fails its CRC check${headerKey ? ' (a wrong password?)' : ''}`);
  }
  const c = new Cursor(buf, sizeCursor.at, buf.length, where);
  const type = c.vint();
  const flags = c.vint();
  const extraSize = flags & HF_EXTRA ? c.vint() : 0;
  const dataSize = flags & HF_DATA ? c.vint() : 0;
  const extraStart = buf.length - extraSize;
  if (extraStart < c.at) throw invalid(`${where} has an extra area larger than the header`);
  const dataStart = headerEnd;
  const dataEnd = dataStart + dataSize;
  if (dataEnd > source.size) {
    throw invalid(`${where} claims ${dataSize} bytes of data, but the volume ends at byte ${source.size}`);
  }
  return { type, flags, start: pos, dataStart, dataEnd, body: c, extraStart, headerEnd };
}

/**
 * Walks one RAR5 volume's headers. `volume` names it in messages. Encrypted headers (`rar -hp`) are read with a
 * key from `keys` (the archive encryption header's salt and check value), or fail naming the missing password.
 */
export async function scanRar5Volume(source: ByteSource, volume: string, keys?: KeyRing): Promise<VolumeScan> {
  const sig = await readUpTo(source, 0, 8);
  if (!sig.equals(RAR5_SIGNATURE)) throw invalid(`${volume} is not a RAR5 volume`);
  const scan: VolumeScan = { format: 'rar5', volumeNumber: null, multiVolume: false, moreVolumes: null, entries: [] };
  let pos = 8;
  let sawMain = false;
  let headerKey: Buffer | undefined;
  while (pos < source.size) {
    const block = await readRar5Block(source, pos, volume, headerKey);
    if (block.type === Type.Crypt) {
      if (headerKey || sawMain) throw invalid(`${volume}: a second archive encryption header`);
      headerKey = await headerKeyOf(block, volume, keys);
    } else if (block.type === Type.Main) {
      const archiveFlags = block.body.vint();
      scan.multiVolume = (archiveFlags & 0x1) !== 0;
      scan.volumeNumber = archiveFlags & 0x2 ? block.body.vint() : 0;
      sawMain = true;
    } else if (block.type === Type.File) {
      if (!sawMain) throw invalid(`${volume}: a file header comes before the main archive header`);
      const entry = fileEntry(block, `${volume} at byte ${pos}`);
      scan.entries.push(entry);
      if (scan.entries.length > MAX_ARCHIVE_MEMBERS) throw tooManyMembers(volume, scan.entries.length, true);
      // A member continues in the next volume only when this one is full: nothing but the end block follows.
      if (entry.splitAfter) {
        scan.moreVolumes = true;
        return scan;
      }
    } else if (block.type === Type.End) {
      scan.moreVolumes = (block.body.vint() & 0x1) !== 0;
      return scan;
    }
    // service headers (comments, ACLs, quick open, recovery) and unknown types are skipped with their data
    pos = block.dataEnd;
  }
  throw invalid(`${volume} ends without an end-of-archive header (truncated?)`);
}

function fileEntry(block: Rar5Block, where: string): ArchiveEntry {
  const c = block.body;
  const fileFlags = c.vint();
  const unpackedSize = c.vint();
  c.vint(); // attributes
  if (fileFlags & 0x2) c.u32(); // mtime
  if (fileFlags & 0x4) c.u32(); // data CRC32
  const compression = c.vint();
  c.vint(); // host OS
  const nameLength = c.vint();
  if (c.at + nameLength > block.extraStart) throw invalid(`${where}: the file name runs past the header`);
  const name = c.bytes(nameLength).toString('utf8');
  const method = (compression >> 7) & 0x7;
  const encryption = extraRecords(c.buf, block.extraStart, c.buf.length, where);
  return {
    name,
    unpackedSize: fileFlags & 0x8 ? -1 : unpackedSize,
    dataOffset: block.dataStart,
    dataSize: block.dataEnd - block.dataStart,
    splitBefore: (block.flags & HF_SPLIT_BEFORE) !== 0,
    splitAfter: (block.flags & HF_SPLIT_AFTER) !== 0,
    directory: (fileFlags & 0x1) !== 0,
    stored: method === 0,
    method: method === 0 ? 'store' : `RAR5 method ${method}`,
    ...(encryption ? { encryption } : {}),
  };
}

/** The file encryption record (type 1) of the extra area, if any; other records are skipped. */
function extraRecords(buf: Buffer, start: number, end: number, where: string): MemberEncryption | undefined {
  const c = new Cursor(buf, start, end, `${where}: the extra area`);
  let found: MemberEncryption | undefined;
  while (c.left > 0) {
    const size = c.vint();
    const recordEnd = c.at + size;
    if (size < 1 || recordEnd > end) throw invalid(`${where}: an extra record runs past the header`);
    const type = c.vint();
    if (type === 0x01) {
      const r = new Cursor(buf, c.at, recordEnd, `${where}: the encryption record`);
      const version = r.vint();
      if (version !== 0) throw invalid(`${where}: unknown RAR5 encryption version ${version}`);
      const flags = r.vint();
      const kdfLog2 = r.u8();
      const salt = r.bytes(16).toString('hex');
      const iv = r.bytes(16).toString('hex');
      const check = flags & 0x1 ? r.bytes(12).toString('hex') : undefined;
      found = { scheme: 'rar5-aes256', salt, iv, kdfLog2, ...(check ? { check } : {}) };
    }
    c.at = recordEnd;
  }
  return found;
}

/** The archive encryption header (type 4): version, flags, KDF rounds, salt, optional check value. */
async function headerKeyOf(block: Rar5Block, volume: string, keys: KeyRing | undefined): Promise<Buffer> {
  const c = block.body;
  const version = c.vint();
  if (version !== 0) throw invalid(`${volume}: unknown RAR5 header encryption version ${version}`);
  const flags = c.vint();
  const kdfLog2 = c.u8();
  const salt = c.bytes(16).toString('hex');
  const check = flags & 0x1 ? c.bytes(12).toString('hex') : undefined;
  const enc: MemberEncryption = { scheme: 'rar5-aes256', salt, iv: '', kdfLog2, ...(check ? { check } : {}) };
  const cipher = await (keys ?? new KeyRing([])).cipherFor(enc, `the headers of ${volume}`);
  return Buffer.from(cipher.key, 'hex');
}
