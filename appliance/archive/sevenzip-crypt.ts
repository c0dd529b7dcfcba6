import { createDecipheriv } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { invalid, type MemberEncryption } from './archive.types.js';
import { KeyRing } from './crypto.js';
import { lzmaDecode, MAX_LZMA_OUTPUT } from './lzma.js';
import { Id, type Folder } from './sevenzip-header.js';

export const AES = '06f10701';
const LZMA = '030101';

/** 7zAES coder properties: cycles power and flags, then salt and IV sizes, then the salt and the IV. */
export function sevenZipAes(props: Buffer, name: string): MemberEncryption {
  if (props.length < 1) throw invalid(`${name}: the 7z AES coder has no properties`);
  const b0 = props[0]!;
  const kdfLog2 = b0 & 0x3f;
  if ((b0 & 0xc0) === 0) return { scheme: '7z-aes256', salt: '', iv: '00'.repeat(16), kdfLog2 };
  const b1 = props[1] ?? 0;
  const saltSize = ((b0 >> 7) & 1) + (b1 >> 4);
  const ivSize = ((b0 >> 6) & 1) + (b1 & 0x0f);
  if (props.length < 2 + saltSize + ivSize) throw invalid(`${name}: the 7z AES coder properties are truncated`);
  const salt = props.subarray(2, 2 + saltSize).toString('hex');
  const iv = Buffer.concat([props.subarray(2 + saltSize, 2 + saltSize + ivSize), Buffer.alloc(16 - ivSize)]);
  return { scheme: '7z-aes256', salt, iv: iv.toString('hex'), kdfLog2 };
}

/** Whether a packed-header folder is 7-Zip's `-mhe` chain: the pack stream AES-decrypted, then LZMA-decoded
 * (or, for a header LZMA would not shrink, AES alone). */
export function isEncryptedHeader(folder: Folder): boolean {
  const ids = folder.coders.map((c) => c.id).sort();
  return ids.length === 1 ? ids[0] === AES : ids.length === 2 && ids[0] === LZMA && ids[1] === AES;
}

/**
 * The header of a `7z -mhe` archive. 7z has no password check value: a password is right when the decrypted
 * stream (LZMA-)decodes to the header size and its CRC32 matches the folder's (or, without one, starts with the
 * header's property id). Missing or wrong passwords fail as for members (ARCHIVE_PASSWORD_MISSING / _WRONG).
 */
export async function openEncryptedHeader(
  packed: Buffer,
  folder: Folder,
  name: string,
  keys: KeyRing = new KeyRing([]),
): Promise<Buffer> {
  const aesAt = folder.coders.findIndex((c) => c.id === AES);
  const lzmaAt = folder.coders.findIndex((c) => c.id === LZMA);
  const cipherSize = folder.unpackSizes[aesAt] ?? -1;
  const headerSize = lzmaAt < 0 ? cipherSize : (folder.unpackSizes[lzmaAt] ?? -1);
  if (packed.length % 16 !== 0 || cipherSize < 0 || cipherSize > packed.length || headerSize < 0) {
    throw invalid(`${name}: the encrypted 7z header has ${packed.length} bytes for ${cipherSize}`);
  }
  if (headerSize > MAX_LZMA_OUTPUT) throw invalid(`${name}: the encrypted 7z header claims ${headerSize} bytes`);
  const enc = sevenZipAes(folder.coders[aesAt]!.properties, name);
  let header: Buffer | undefined;
  await keys.cipherFor(enc, `the headers of ${name}`, async (cipher) => {
    const d = createDecipheriv(cipher.algorithm, Buffer.from(cipher.key, 'hex'), Buffer.from(cipher.iv, 'hex'));
    const lzma = d.setAutoPadding(false).update(packed).subarray(0, cipherSize);
    let out: Buffer = lzma;
    try {
      if (lzmaAt >= 0) out = lzmaDecode(folder.coders[lzmaAt]!.properties, lzma, headerSize);
    } catch {
      return false; // a wrong key turns the LZMA stream into garbage
    }
    if (folder.crc !== undefined ? crc32(out) !== folder.crc : out[0] !== Id.Header) return false;
    header = out;
    return true;
  });
  return header!;
}
