/** A provider's own CA (`providers[].ca`): PEM certificates trusted besides the system's, for a private chain. */
import { X509Certificate } from 'node:crypto';
import { caPemShapeError } from './ca-pem.wire.js';

type CaList = string | Buffer | Array<string | Buffer> | undefined;

/** Why `pem` is not a usable CA, or null (ca-pem.wire.ts): each block must parse as an X.509 certificate. */
export function caPemError(pem: string): string | null {
  return caPemShapeError(pem, (block) => {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  });
}

/** The pool's extra CAs plus the provider's own `ca`, when it has one. */
export function withProviderCa(pool: CaList, ca: string | undefined): CaList {
  if (!ca?.trim()) return pool;
  return [...(pool === undefined ? [] : Array.isArray(pool) ? pool : [pool]), ca];
}
