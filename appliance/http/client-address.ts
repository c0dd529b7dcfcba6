import { BlockList, isIP } from 'node:net';
import { parseProxyEntry } from '../config/proxy-entry.js';

export { parseProxyEntry };

/** IPv4 clients of a dual-stack socket appear as `::ffff:1.2.3.4`; one spelling per client for the limiter. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? (mapped[1] as string) : address;
}

/** The proxies whose X-Forwarded-* headers are believed. Built once per config change. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    let count = 0;
    for (const entry of entries) {
      const parsed = parseProxyEntry(entry);
      if (!parsed) continue; // the config validation reports it; never trust a malformed entry
      if (parsed.prefix === null) this.list.addAddress(parsed.address, parsed.family);
      else this.list.addSubnet(parsed.address, parsed.prefix, parsed.family);
      count++;
    }
    this.empty = count === 0;
  }

  has(address: string): boolean {
    if (this.empty) return false;
    const a = normalizeAddress(address);
    const version = isIP(a);
    return version !== 0 && this.list.check(a, version === 4 ? 'ipv4' : 'ipv6');
  }
}

/**
 * The caller's address. From a trusted proxy, X-Forwarded-For is read right to left, skipping trusted proxies:
 * the first address that is not one is what the last trusted hop saw connecting, so whatever the client wrote on
 * the left cannot change it. From anyone else the header is ignored.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, proxies: TrustedProxies): string {
  let client = normalizeAddress(peer);
  if (!forwardedFor || !proxies.has(client)) return client;
  const hops = forwardedFor.split(',').map((h) => normalizeAddress(h.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (isIP(hop) === 0) return client; // garbage: stay with the last hop we could believe
    client = hop;
    if (!proxies.has(hop)) return client;
  }
  return client;
}
