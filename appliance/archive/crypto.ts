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

  async cipherFor(enc: MemberEncryption, member: string): Promise<MemberCipher> {
    if (enc.scheme !== 'rar5-aes256') {
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
    if (kdf > MAX_RAR5_KDF_LOG2) throw invalid(`${member} asks for 2^${kdf} key derivation rounds (RAR allows 2^24)`);
    for (const password of this.passwords) {
      const cacheKey = `${enc.salt}:${kdf}:${enc.check ?? ''}:${password}`;
      let key = this.cache.get(cacheKey);
      if (!key) {
        key = rar5Key(password, enc, kdf);
        this.cache.set(cacheKey, key);
      }
      const found = await key;
      if (found) return { algorithm: 'aes-256-cbc', key: found, iv: enc.iv };
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
