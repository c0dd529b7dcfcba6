import { Cursor, readUpTo } from './bytes.js';
import {
  ArchiveError,
  invalid,
  type ArchiveEntry,
  type ByteSource,
  type MemberEncryption,
  type VolumeScan,
} from './archive.types.js';
import type { KeyRing } from './crypto.js';
import { readRar4Block, readSealedRar4Block, type Rar4Block } from './rar4-block.js';
import { decodeRar4Name } from './rar4-name.js';
import { MAX_ARCHIVE_MEMBERS, tooManyMembers } from './limits.js';

/**
 * RAR 2.9/3.x ("RAR 4") volume headers, from the RAR 3.x technical notes. A block is HEAD_CRC (low 16 bits of the
 * CRC32 of the header from HEAD_TYPE on) | HEAD_TYPE | HEAD_FLAGS | HEAD_SIZE | [ADD_SIZE when flags & 0x8000];
 * a file header's PACK_SIZE is its ADD_SIZE. Only headers are read; member data is skipped by its size.
 */
export const RAR4_SIGNATURE = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]);

const MAIN = 0x73;
const FILE = 0x74;
const END = 0x7b;
const LONG_BLOCK = 0x8000;
const MHD_VOLUME = 0x1;
const MHD_PASSWORD = 0x80;
const MHD_FIRSTVOLUME = 0x100;
const LHD_SPLIT_BEFORE = 0x1;
const LHD_SPLIT_AFTER = 0x2;
const LHD_PASSWORD = 0x4;
const LHD_LARGE = 0x100;
const LHD_UNICODE = 0x200;
const LHD_SALT = 0x400;
const EARC_NEXT_VOLUME = 0x1;
const EARC_DATACRC = 0x2;
const EARC_VOLNUMBER = 0x8;

/**
 * Walks one RAR 4 volume's headers. With `readEnd`, also reads the end block after a member that continues in the
 * next volume (its volume number orders volumes whose names say nothing; it costs the volume's last article).
 */
export async function scanRar4Volume(
  source: ByteSource,
  volume: string,
  readEnd = false,
  keys?: KeyRing,
): Promise<VolumeScan> {
  const sig = await readUpTo(source, 0, 7);
  if (!sig.equals(RAR4_SIGNATURE)) throw invalid(`${volume} is not a RAR 4 volume`);
  const scan: VolumeScan = { format: 'rar4', volumeNumber: null, multiVolume: false, moreVolumes: null, entries: [] };
  let pos = 7;
  let sawMain = false;
  let splitSeen = false;
  let sealed = false; // MHD_PASSWORD: every block after the archive header is encrypted
  while (pos < source.size) {
    const where = `the RAR header at byte ${pos} of ${volume}`;
    const block: Rar4Block = sealed
      ? await readSealedRar4Block(source, pos, where, volume, keys)
      : await readRar4Block(source, pos, where);
    const { buf, type, flags, headSize, dataStart } = block;
    const c = new Cursor(buf, 7, headSize, where);
    let dataSize = 0;
    if (type === MAIN) {
      if (sawMain) throw invalid(`${volume}: a second archive header`);
      sealed = (flags & MHD_PASSWORD) !== 0;
      scan.multiVolume = (flags & MHD_VOLUME) !== 0;
      if (flags & MHD_FIRSTVOLUME) scan.volumeNumber = 0;
      sawMain = true;
    } else if (type === FILE) {
      if (!sawMain) throw invalid(`${volume}: a file header comes before the archive header`);
      const entry = fileEntry(c, flags, dataStart, `${volume} at byte ${pos}`);
      dataSize = entry.dataSize;
      if (entry.dataOffset + dataSize > source.size) {
        throw invalid(`${where} claims ${dataSize} bytes of data, but the volume ends at byte ${source.size}`);
      }
      scan.entries.push(entry);
      if (scan.entries.length > MAX_ARCHIVE_MEMBERS) throw tooManyMembers(volume, scan.entries.length, true);
      if (entry.splitAfter) {
        scan.moreVolumes = true;
        if (!readEnd) return scan;
        splitSeen = true;
      }
    } else if (type === END) {
      if (flags & EARC_DATACRC) c.u32();
      if (flags & EARC_VOLNUMBER) scan.volumeNumber = c.u16();
      scan.moreVolumes = (flags & EARC_NEXT_VOLUME) !== 0;
      return scan;
    } else if (flags & LONG_BLOCK) {
      dataSize = c.u32(); // service blocks (comments, recovery record, ...) skipped with their data
      if (type === 0x7a && flags & LHD_LARGE) {
        c.at = 7 + 25;
        dataSize += c.u32() * 2 ** 32;
      }
    }
    pos = dataStart + dataSize;
    if (pos > source.size) throw invalid(`${where} claims data past the end of the volume`);
  }
  if (splitSeen) return scan;
  throw invalid(`${volume} ends without an end-of-archive header (truncated?)`);
}

function fileEntry(c: Cursor, flags: number, dataOffset: number, where: string): ArchiveEntry {
  const packLow = c.u32();
  const unpLow = c.u32();
  c.u8(); // host OS
  const crc = c.u32();
  c.u32(); // DOS time
  const version = c.u8(); // version needed to extract: 29+ means AES-128 when encrypted
  const method = c.u8();
  const nameSize = c.u16();
  c.u32(); // attributes
  const packHigh = flags & LHD_LARGE ? c.u32() : 0;
  const unpHigh = flags & LHD_LARGE ? c.u32() : 0;
  const name = decodeRar4Name(c.bytes(nameSize), (flags & LHD_UNICODE) !== 0);
  const salt = flags & LHD_SALT ? c.bytes(8) : undefined;
  const dataSize = packHigh * 2 ** 32 + packLow;
  const unpackedSize = unpHigh * 2 ** 32 + unpLow;
  if (!Number.isSafeInteger(dataSize) || !Number.isSafeInteger(unpackedSize))
    throw invalid(`${where}: a size field is out of range`);
  if (flags & LHD_PASSWORD && version < 29) {
    throw new ArchiveError('ARCHIVE_UNSUPPORTED', `${where}: ${name} uses RAR 2.x encryption, which is not supported`);
  }
  // RAR 3 derives the IV with the key from password and salt (archive/rar3-key.ts); the header carries none
  const encryption: MemberEncryption | undefined =
    flags & LHD_PASSWORD ? { scheme: 'rar3-aes128', salt: salt?.toString('hex') ?? '', iv: '' } : undefined;
  return {
    name: name.replace(/\\/g, '/'),
    unpackedSize,
    dataOffset,
    dataSize,
    splitBefore: (flags & LHD_SPLIT_BEFORE) !== 0,
    splitAfter: (flags & LHD_SPLIT_AFTER) !== 0,
    directory: (flags & 0xe0) === 0xe0,
    stored: method === 0x30,
    method: method === 0x30 ? 'store' : `RAR method ${method - 0x30}`,
    ...(encryption ? { encryption } : {}),
    // a piece's CRC is of its own stored bytes, except the last one's (the whole member's plain bytes)
    ...((flags & LHD_SPLIT_AFTER) === 0 ? { crc } : {}),
  };
}
