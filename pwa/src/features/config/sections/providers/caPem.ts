import { caPemShapeError } from '../../../../../../appliance/nntp/ca-pem.wire';

/**
 * The provider form's check of a CA certificate (PEM), before the server's own (appliance/nntp/tls-ca.ts, which
 * parses each certificate): the same messages, so a paste that cannot be a certificate is a field error at once.
 */
export const caPemError = (pem: string): string | null =>
  caPemShapeError(pem, (_block, base64) => isDerSequence(base64));

/** Base64 whose bytes start as a DER SEQUENCE whose stated length is exactly what follows. */
function isDerSequence(base64: string): boolean {
  const text = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return false;
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  if (bytes[0] !== 0x30 || bytes.length < 2) return false;
  const first = bytes[1] as number;
  if (first < 0x80) return first + 2 === bytes.length;
  const n = first & 0x7f;
  if (n === 0 || n > 3 || bytes.length < 2 + n) return false;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + (bytes[2 + i] as number);
  return length + 2 + n === bytes.length;
}
