import { createHash, pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { ArchiveError, invalid, type MemberEncryption } from './archive.types.js';
import { rar3KeyIv } from './rar3-key.js';
import { deriveSevenZipKey, type SevenZipKdf } from './sevenzip-key.js';

const pbkdf2Async = promisify(pbkdf2);

/**
 * Key derivations one import may run (each salt times each password; a password proven on one member is tried first
 * on the next, so a release costs about passwords + members). Each costs 30-400 ms of CPU: archives asking for a
 * fresh salt per member or header by the thousand are traps.
 */
const MAX_DERIVATIONS = 512;

/** RAR caps its KDF at 2^24 rounds; a header asking for more is hostile (it would hold the thread pool for hours). */
const MAX_RAR5_KDF_LOG2 = 24;

/** How to decrypt a member's stored bytes: AES-CBC from its first stored byte (the reader seeks by whole blocks). */
export interface MemberCipher {
  algorithm: 'aes-256-cbc' | 'aes-128-cbc';
  key: string; // hex
  iv: string; // hex
}

/**
 * What a member's bytes say about a cipher when the archive has no check value (7z, RAR 3): true (its CRC or its
 * first bytes prove it), false (they disprove it), undefined (nothing to tell).
 */
export type CipherCheck = (cipher: MemberCipher, enc: MemberEncryption) => Promise<boolean | undefined>;

/**
 * The key of an encrypted member from the first password that fits. RAR5 derives it with PBKDF2-HMAC-SHA256
 * (2^kdfLog2 rounds); 32 more rounds give the password check value, folded to 8 bytes and compared with the one in
 * the header (its own SHA-256 checksum says whether the stored check can be trusted). RAR 3 and 7z carry no check
 * value: a `CipherCheck` decides there. A password proven on one member is tried first on the next. Derived keys
 * are cached per salt, so a set whose members share a salt pays once.
 */
export class KeyRing {
  private readonly cache = new Map<string, Promise<Derived | null>>();
  private proven: string | undefined;

  /**
   * `sevenZipKey` derives 7zAES keys; the importer passes the worker pool's (workers/sevenzip-key.client.ts) so the
   * main thread keeps serving while a key derives. Without it keys derive inline (the parsers' own tests).
   */
  constructor(
    readonly passwords: readonly string[],
    private readonly sevenZipKey: SevenZipKdf = async (p, salt, kdf) => deriveSevenZipKey(p, salt, kdf),
  ) {}

  /** Whether some member has proven a password yet. */
  get hasProven(): boolean {
    return this.proven !== undefined;
  }

  async cipherFor(enc: MemberEncryption, member: string, check?: CipherCheck): Promise<MemberCipher> {
    if (this.passwords.length === 0) {
      throw new ArchiveError(
        'ARCHIVE_PASSWORD_MISSING',
        `${member} ${headers(member) ? 'are' : 'is'} encrypted and no password was given (NZB <meta type="password">, the SABnzbd password, or import.archive_passwords)`,
      );
    }
    const kdf = enc.kdfLog2 ?? 0;
    if (kdf > MAX_RAR5_KDF_LOG2)
      throw invalid(`${member} asks for 2^${kdf} key derivation rounds (at most 2^24 are allowed)`);
    const order = this.proven ? [this.proven, ...this.passwords.filter((p) => p !== this.proven)] : this.passwords;
    let unproven: MemberCipher | undefined;
    for (const password of order) {
      const derived = await this.derive(enc, kdf, password);
      if (!derived) continue; // failed the check value
      // keys are cached per salt; the IV is each member's own (RAR 3 derives it with the key)
      const cipher = { ...derived.cipher, iv: enc.scheme === 'rar3-aes128' ? derived.cipher.iv : enc.iv };
      const verdict = derived.checked ? true : check ? await check(cipher, enc) : undefined;
      if (verdict === true || (verdict === undefined && password === this.proven)) {
        this.proven = password;
        return cipher;
      }
      if (verdict === undefined) {
        unproven ??= cipher;
        if (!check) break; // nothing can tell the passwords apart: the first one is taken (docs/archives.md)
      }
    }
    if (unproven) return unproven;
    throw new ArchiveError(
      'ARCHIVE_PASSWORD_WRONG',
      `wrong password for ${headers(member) ? '' : 'encrypted archive member '}${member} (tried ${this.passwords.length} password${this.passwords.length > 1 ? 's' : ''})`,
    );
  }

  private derive(enc: MemberEncryption, kdf: number, password: string): Promise<Derived | null> {
    const cacheKey = `${enc.scheme}:${enc.salt}:${kdf}:${enc.check ?? ''}:${password}`;
    let derived = this.cache.get(cacheKey);
    if (!derived) {
      if (this.cache.size >= MAX_DERIVATIONS) {
        throw invalid(`the archive needs more than ${MAX_DERIVATIONS} key derivations (a salt per header? a trap)`);
      }
      derived =
        enc.scheme === 'rar5-aes256'
          ? rar5Key(password, enc, kdf)
          : enc.scheme === 'rar3-aes128'
            ? rar3Cipher(password, enc)
            : this.sevenZipKey(password, enc.salt, kdf).then((key) => ({
                cipher: { algorithm: 'aes-256-cbc' as const, key, iv: enc.iv },
                checked: false,
              }));
      this.cache.set(cacheKey, derived);
    }
    return derived;
  }
}

/** `member` names an archive's encrypted headers ("the headers of x.rar"), not a member. */
const headers = (member: string) => member.startsWith('the headers of ');

/** A derived cipher, and whether the archive's own check value proved the password. */
interface Derived {
  cipher: MemberCipher;
  checked: boolean;
}

async function rar3Cipher(password: string, enc: MemberEncryption): Promise<Derived> {
  const { key, iv } = await rar3KeyIv(password, enc.salt);
  return { cipher: { algorithm: 'aes-128-cbc', key: key.toString('hex'), iv: iv.toString('hex') }, checked: false };
}

/** The cipher when `password` passes the header's check value (or the archive carries none), else null. */
async function rar5Key(password: string, enc: MemberEncryption, kdf: number): Promise<Derived | null> {
  const salt = Buffer.from(enc.salt, 'hex');
  const rounds = 2 ** kdf;
  const key = await pbkdf2Async(password, salt, rounds, 32, 'sha256');
  const check = enc.check ? Buffer.from(enc.check, 'hex') : null;
  let checked = false;
  if (check && check.length === 12) {
    const sum = createHash('sha256').update(check.subarray(0, 8)).digest().subarray(0, 4);
    if (sum.equals(check.subarray(8))) {
      const v = await pbkdf2Async(password, salt, rounds + 32, 32, 'sha256');
      const fold = Buffer.alloc(8);
      for (let i = 0; i < 32; i++) fold[i % 8]! ^= v[i]!;
      if (!timingSafeEqual(fold, check.subarray(0, 8))) return null;
      checked = true;
    }
  }
  return { cipher: { algorithm: 'aes-256-cbc', key: key.toString('hex'), iv: enc.iv }, checked };
}
