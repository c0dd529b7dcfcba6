import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt. The stored string carries its own parameters
 * (`scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`) so the cost can be raised later without breaking old hashes.
 * N = 2^15, r = 8 costs 32 MiB and roughly 50-100 ms per hash here: slow for guessing, fine for a login.
 */
export interface ScryptCost {
  log2N: number;
  r: number;
  p: number;
}

export const DEFAULT_COST: ScryptCost = { log2N: 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** Longer inputs are refused before hashing: nobody types 1 KiB passwords, and it bounds the work per request. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.log2N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when `password` matches `stored`. A malformed stored hash never matches (and never throws). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![log2N, r, p].every((n) => Number.isInteger(n) && n > 0) || log2N > 22) return false;
  const salt = Buffer.from(parts[4] as string, 'base64');
  const expected = Buffer.from(parts[5] as string, 'base64');
  if (expected.length !== KEY_LENGTH || password.length > MAX_PASSWORD_LENGTH) return false;
  const actual = await derive(password, salt, { log2N, r, p });
  return timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same as a real check (unknown user names take as long). */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
