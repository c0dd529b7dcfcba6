/**
 * The shape rules of a provider's CA (`providers[].ca`, docs/configuration.md), shared by the server
 * (appliance/nntp/tls-ca.ts, which parses each certificate with node:crypto) and the console's provider form (which
 * cannot, and checks the DER framing instead): the same messages on both sides. Pure: no Node built-in.
 */
const BLOCK = /-----BEGIN CERTIFICATE-----\r?\n([\s\S]*?)-----END CERTIFICATE-----/g;

/**
 * Why `pem` is not a usable CA, or null when it is (or is empty: no CA). Every `BEGIN CERTIFICATE` block must pass
 * `parses` (given the whole block and its base64 body), and nothing but whitespace may stand outside them (a pasted
 * private key, a half copied block), so a mistake is a clear field error instead of a provider that stays untrusted.
 */
export function caPemShapeError(pem: string, parses: (block: string, base64: string) => boolean): string | null {
  if (pem.trim() === '') return null;
  const blocks = [...pem.matchAll(BLOCK)];
  if (blocks.length === 0)
    return 'Not a PEM certificate: paste the CA certificate, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----';
  if (pem.replace(BLOCK, '').trim() !== '')
    return 'Only certificates may be pasted here: the text outside the BEGIN/END CERTIFICATE lines is not one';
  for (const [i, block] of blocks.entries()) {
    if (!parses(block[0], block[1] ?? ''))
      return `Certificate ${i + 1} of ${blocks.length} does not parse: it was cut or changed while copying`;
  }
  return null;
}
