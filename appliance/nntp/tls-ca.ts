/** A provider's own CA (`providers[].ca`): PEM certificates trusted besides the system's, for a private chain. */
import { X509Certificate } from 'node:crypto';

type CaList = string | Buffer | Array<string | Buffer> | undefined;

const BLOCK = /-----BEGIN CERTIFICATE-----\r?\n([\s\S]*?)-----END CERTIFICATE-----/g;

/**
 * Why `pem` is not a usable CA, or null when it is (or is empty: no CA). Every `BEGIN CERTIFICATE` block must parse
 * as an X.509 certificate, and nothing but whitespace may stand outside them (a pasted private key, a half copied
 * block), so a mistake is a clear field error at save time instead of a provider that silently stays untrusted.
 */
export function caPemError(pem: string): string | null {
  if (pem.trim() === '') return null;
  const blocks = [...pem.matchAll(BLOCK)];
  if (blocks.length === 0)
    return 'Not a PEM certificate: paste the CA certificate, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----';
  if (pem.replace(BLOCK, '').trim() !== '')
    return 'Only certificates may be pasted here: the text outside the BEGIN/END CERTIFICATE lines is not one';
  for (const [i, block] of blocks.entries()) {
    try {
      new X509Certificate(block[0]);
    } catch {
      return `Certificate ${i + 1} of ${blocks.length} does not parse: it was cut or changed while copying`;
    }
  }
  return null;
}

/** The pool's extra CAs plus the provider's own `ca`, when it has one. */
export function withProviderCa(pool: CaList, ca: string | undefined): CaList {
  if (!ca?.trim()) return pool;
  return [...(pool === undefined ? [] : Array.isArray(pool) ? pool : [pool]), ca];
}
