import { createHash, pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { ArchiveError, invalid, type MemberEncryption } from './archive.types.js';

const pbkdf2Async = promisify(pbkdf2);

/** RAR caps its KDF at 2^24 rounds; a header asking for more is hostile (it would hold the thread pool for hours). */
const MAX_RAR5_KDF_LOG2 = 24;

/** How to decrypt a member's stored bytes: AES-CBC from its first stored byte (the reader seeks by whole blocks). */
export interface MemberCipher {
  algorithm: 'aes-256-cbc' | 'aes-128-cbc';
  key: string; // hex
  iv: string; // hex
}

/**
 * The key of an encrypted member from the first password that fits. RAR5 derives it with PBKDF2-HMAC-SHA256
 * (2^kdfLog2 rounds); 32 more rounds give the password check value, folded to 8 bytes and compared with the one in
 * the header (its own SHA-256 checksum says whether the stored check can be trusted). Derived keys are cached per
 * salt, so a set whose members share a salt pays once.
 */
export class KeyRing {
  private readonly cache = new Map<string, Promise<MemberCipher['key'] | null>>();

  constructor(readonly passwords: readonly string[]) {}

  /**
   * The cipher of an encrypted member from the first password that fits. RAR5 carries a password check value;
   * 7z does not, so `verify` (decrypt a small member and compare its CRC) decides there, when given.
   */
  async cipherFor(
    enc: MemberEncryption,
    member: string,
    verify?: (cipher: MemberCipher, enc: MemberEncryption) => Promise<boolean>,
  ): Promise<MemberCipher> {
    if (enc.scheme === 'rar3-aes128') {
      throw new ArchiveError(
        'ARCHIVE_UNSUPPORTED',
        `${member} is encrypted with ${enc.scheme}, which cannot be streamed yet`,
      );
    }
    if (this.passwords.length === 0) {
      throw new ArchiveError(
        'ARCHIVE_PASSWORD_MISSING',
        `${member} is encrypted and no password was given (NZB <meta type="password">, the SABnzbd password, or import.archive_passwords)`,
      );
    }
    const kdf = enc.kdfLog2 ?? 0;
    if (kdf > MAX_RAR5_KDF_LOG2)
      throw invalid(`${member} asks for 2^${kdf} key derivation rounds (at most 2^24 are allowed)`);
    for (const password of this.passwords) {
      const cacheKey = `${enc.scheme}:${enc.salt}:${kdf}:${enc.check ?? ''}:${password}`;
      let key = this.cache.get(cacheKey);
      if (!key) {
        key = enc.scheme === 'rar5-aes256' ? rar5Key(password, enc, kdf) : sevenZipKey(password, enc, kdf);
        this.cache.set(cacheKey, key);
      }
      const found = await key;
      if (!found) continue;
      const cipher: MemberCipher = { algorithm: 'aes-256-cbc', key: found, iv: enc.iv };
      if (!verify || (await verify(cipher, enc))) return cipher;
    }
    throw new ArchiveError(
      'ARCHIVE_PASSWORD_WRONG',
      `wrong password for encrypted archive member ${member} (tried ${this.passwords.length} password${this.passwords.length > 1 ? 's' : ''})`,
    );
  }
}

/** The key when `password` passes the header's check value (or the archive carries none), else null. */
async function rar5Key(password: string, enc: MemberEncryption, kdf: number): Promise<string | null> {
  const salt = Buffer.from(enc.salt, 'hex');
  const rounds = 2 ** kdf;
  const key = await pbkdf2Async(password, salt, rounds, 32, 'sha256');
  const check = enc.check ? Buffer.from(enc.check, 'hex') : null;
  if (check && check.length === 12) {
    const sum = createHash('sha256').update(check.subarray(0, 8)).digest().subarray(0, 4);
    if (sum.equals(check.subarray(8))) {
      const v = await pbkdf2Async(password, salt, rounds + 32, 32, 'sha256');
      const fold = Buffer.alloc(8);
      for (let i = 0; i < 32; i++) fold[i % 8]! ^= v[i]!;
      if (!timingSafeEqual(fold, check.subarray(0, 8))) return null;
    }
  }
  return key.toString('hex');
}

/**
 * 7zAES key: SHA-256 over 2^kdf rounds of (salt, password as UTF-16LE, 8-byte little-endian round number), as 7-Zip's
 * 7zAes.cpp does; cycles power 0x3f means the salt and password themselves, padded to 32 bytes. Rounds are hashed in
 * batches (one update per 64Ki rounds), and the event loop gets a turn between batches.
 */
async function sevenZipKey(password: string, enc: MemberEncryption, kdf: number): Promise<string> {
  const salt = Buffer.from(enc.salt, 'hex');
  const pw = Buffer.from(password, 'utf16le');
  if (kdf === 0x3f)
    return Buffer.concat([salt, pw, Buffer.alloc(32)])
      .subarray(0, 32)
      .toString('hex');
  const unit = salt.length + pw.length + 8;
  const rounds = 2 ** kdf;
  const batch = Math.min(rounds, 65_536);
  const buf = Buffer.alloc(unit * batch);
  for (let i = 0; i < batch; i++) {
    salt.copy(buf, i * unit);
    pw.copy(buf, i * unit + salt.length);
  }
  const hash = createHash('sha256');
  for (let done = 0; done < rounds; done += batch) {
    for (let i = 0; i < batch; i++) buf.writeBigUInt64LE(BigInt(done + i), i * unit + salt.length + pw.length);
    hash.update(buf);
    await new Promise((r) => setImmediate(r));
  }
  return hash.digest('hex');
}
