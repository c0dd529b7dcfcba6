import { isIP } from 'node:net';

/**
 * One `auth.trusted_proxies` entry: an address (`10.0.0.2`, `::1`) or a range (`172.16.0.0/12`, `fd00::/8`).
 * The config's validation (rules.ts) and the HTTP front's trusted proxies (http/client-address.ts) read it alike.
 */
export function parseProxyEntry(
  entry: string,
): { address: string; prefix: number | null; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, prefix: null, family };
  const prefix = Number(prefixText);
  const max = version === 4 ? 32 : 128;
  if (!/^\d+$/.test(prefixText) || prefix > max) return null;
  return { address, prefix, family };
}
