import { createHash } from 'node:crypto';

/** Derives a 7zAES key: (password, salt as hex, cycles power) to the key as hex. */
export type SevenZipKdf = (password: string, salt: string, kdfLog2: number) => Promise<string>;

/**
 * 7zAES key: SHA-256 over 2^kdf rounds of (salt, password as UTF-16LE, 8-byte little-endian round number), as 7-Zip's
 * 7zAes.cpp does; cycles power 0x3f means the salt and password themselves, padded to 32 bytes. Rounds are hashed in
 * batches (one update per 64Ki rounds). Synchronous and CPU-bound (2^19 rounds, 7-Zip's default, hash ~20 MB): the
 * importer runs it in a worker (workers/sevenzip-key.task.ts), never on the main thread.
 */
export function deriveSevenZipKey(password: string, saltHex: string, kdf: number): string {
  const salt = Buffer.from(saltHex, 'hex');
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
  }
  return hash.digest('hex');
}
