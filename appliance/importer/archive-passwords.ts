import { createDecipheriv } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ArchiveMember, CipherCheck, MemberCipher } from '../archive/index.js';
import type { FileLayout } from '../layout/index.js';
import { layoutSource, type ImportArticles } from './layout-bytes.js';

/** Largest member whose bytes are read at import to prove a password where the archive has no check value. */
const MAX_VERIFY_BYTES = 4 * 1024 * 1024;

/**
 * How a password is proven on 7z and RAR 3 members, which carry no check value (docs/archives.md), cheapest
 * evidence first: the set's smallest encrypted member with a CRC (up to 4 MiB, one read at import, cached across
 * passwords) decrypted and compared with its CRC, when its key is derived like the member's (same salt and rounds);
 * else the member's first 16 bytes (in the volume's first article, already fetched) against the signature its
 * file type always starts with (Matroska, AVI, MP4, RAR, 7z) or, for text files (.nfo, .srt, ...), printable text.
 */
export function cipherChecks(
  members: readonly ArchiveMember[],
  layoutOf: (m: ArchiveMember) => FileLayout,
  articles: ImportArticles,
): (m: ArchiveMember) => CipherCheck {
  const probe = members
    .filter((m) => m.encryption && m.crc !== undefined && m.size > 0 && m.size <= MAX_VERIFY_BYTES)
    .sort((a, b) => a.size - b.size)[0];
  const read = (m: ArchiveMember, length: number) => {
    const layout = layoutOf(m);
    return layoutSource(layout, articles, m.name).read(0, Math.min(length, layout.size));
  };
  return (member) => async (cipher, enc) => {
    const sameKey = probe && enc.salt === probe.encryption!.salt && enc.kdfLog2 === probe.encryption!.kdfLog2;
    if (sameKey) {
      const plain = decrypt(cipher, probe.encryption!.iv, await read(probe, MAX_VERIFY_BYTES + 16));
      return crc32(plain.subarray(0, probe.size)) === probe.crc;
    }
    if (member.size < 16) return undefined;
    return firstBlockVerdict(member.name, decrypt(cipher, enc.iv, await read(member, 16)));
  };
}

/** The member's own IV (RAR5, 7z), or the one derived with the key (RAR 3, whose header carries none). */
function decrypt(cipher: MemberCipher, iv: string, stored: Buffer): Buffer {
  const d = createDecipheriv(cipher.algorithm, Buffer.from(cipher.key, 'hex'), Buffer.from(iv || cipher.iv, 'hex'));
  return d.setAutoPadding(false).update(stored.subarray(0, stored.length - (stored.length % 16)));
}

const MAGIC: [RegExp, number, Buffer][] = [
  [/\.(mkv|mka|mks|webm)$/i, 0, Buffer.from([0x1a, 0x45, 0xdf, 0xa3])],
  [/\.avi$/i, 0, Buffer.from('RIFF')],
  [/\.(mp4|m4v)$/i, 4, Buffer.from('ftyp')],
  [/\.rar$/i, 0, Buffer.from('Rar!\x1a\x07', 'latin1')],
  [/\.7z$/i, 0, Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])],
];
const TEXT = /\.(nfo|srt|txt|ass|ssa|sub|idx|sfv|md5)$/i;

/**
 * Matroska and AVI files always start with their signature, so a wrong one disproves the key. Formats with
 * variants (an MP4 may start with another box) and text only prove a key; otherwise they say nothing.
 */
function firstBlockVerdict(name: string, plain: Buffer): boolean | undefined {
  for (const [ext, at, magic] of MAGIC) {
    if (!ext.test(name)) continue;
    const match = plain.subarray(at, at + magic.length).equals(magic);
    return match ? true : ext.source.includes('mp4') ? undefined : false;
  }
  if (TEXT.test(name) && isText(plain)) return true;
  return undefined;
}

/** Printable ASCII, tabs and line ends: 16 random bytes pass with odds of about 2 in 10^7. */
function isText(b: Buffer): boolean {
  return b.every((c) => (c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d);
}
