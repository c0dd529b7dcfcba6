import { createDecipheriv } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { readUpTo } from './bytes.js';
import { invalid, type ByteSource } from './archive.types.js';
import { KeyRing, type MemberCipher } from './crypto.js';

/** One RAR 4 block header, checked against its CRC; `dataStart` is the volume byte after it. */
export interface Rar4Block {
  buf: Buffer;
  type: number;
  flags: number;
  headSize: number;
  dataStart: number;
}

/** HEAD_CRC | HEAD_TYPE | HEAD_FLAGS | HEAD_SIZE | ...; HEAD_CRC is the low 16 bits of the CRC32 from HEAD_TYPE on. */
export async function readRar4Block(source: ByteSource, pos: number, where: string): Promise<Rar4Block> {
  const head = await readUpTo(source, pos, 7);
  if (head.length < 7) throw invalid(`${where} is truncated`);
  const headSize = head.readUInt16LE(5);
  if (headSize < 7) throw invalid(`${where} claims a ${headSize}-byte header`);
  if (pos + headSize > source.size) throw invalid(`${where} is truncated (the volume ends at byte ${source.size})`);
  const buf = await source.read(pos, headSize);
  if (!crcHolds(buf)) throw invalid(`${where} fails its CRC check`);
  return { buf, type: buf[2]!, flags: buf.readUInt16LE(3), headSize, dataStart: pos + headSize };
}

const crcHolds = (buf: Buffer) => (crc32(buf.subarray(2)) & 0xffff) === buf.readUInt16LE(0);
/** Block types RAR 2.9/3.x writes after the archive header (file, old-style comment..subblock, end). */
const isBlockType = (type: number) => type >= 0x74 && type <= 0x7b;

/**
 * A block after an archive header flagged MHD_PASSWORD (`rar -hp`): an 8-byte salt, then the header AES-128-CBC
 * encrypted with the key and IV derived from the password and that salt (archive/rar3-key.ts), zero-padded to whole
 * blocks; the data after it is not touched (members are encrypted on their own). The header's CRC proves the
 * password (with its type, about one wrong password in 2^21 slips through); the key is cached per salt, and RAR
 * writes one salt for all headers of a volume.
 */
export async function readSealedRar4Block(
  source: ByteSource,
  pos: number,
  where: string,
  volume: string,
  keys: KeyRing = new KeyRing([]),
): Promise<Rar4Block> {
  if (pos + 8 + 16 > source.size) throw invalid(`${where} is truncated`);
  const salt = (await source.read(pos, 8)).toString('hex');
  const first = await source.read(pos + 8, 16);
  let block: Rar4Block | undefined;
  const open = async (cipher: MemberCipher): Promise<boolean> => {
    const d = createDecipheriv('aes-128-cbc', Buffer.from(cipher.key, 'hex'), Buffer.from(cipher.iv, 'hex'));
    d.setAutoPadding(false);
    const head = d.update(first);
    const headSize = head.readUInt16LE(5);
    const stored = Math.ceil(headSize / 16) * 16;
    if (headSize < 7 || !isBlockType(head[2]!) || pos + 8 + stored > source.size) return false;
    const rest = stored > 16 ? d.update(await source.read(pos + 24, stored - 16)) : Buffer.alloc(0);
    const buf = Buffer.concat([head, rest]).subarray(0, headSize);
    if (!crcHolds(buf)) return false;
    block = { buf, type: buf[2]!, flags: buf.readUInt16LE(3), headSize, dataStart: pos + 8 + stored };
    return true;
  };
  await keys.cipherFor({ scheme: 'rar3-aes128', salt, iv: '' }, `the headers of ${volume}`, open);
  return block!;
}
