import { TrustedProxies } from '../http/client-address.js';
import type { NetworkPolicy } from '../http/dispatch.js';

export interface NetworkSettings {
  trusted_proxies: readonly string[];
  trusted_origins: readonly string[];
}

/**
 * `auth.trusted_proxies` and `auth.trusted_origins`, read live. The proxy list is compiled once per config change
 * (a saved config is a new frozen object, so identity tells us when it changed).
 */
export function networkPolicy(settings: () => NetworkSettings): NetworkPolicy {
  let source: readonly string[] | null = null;
  let compiled = new TrustedProxies([]);
  return {
    trustedProxies() {
      const list = settings().trusted_proxies;
      if (list !== source) {
        source = list;
        compiled = new TrustedProxies(list);
      }
      return compiled;
    },
    trustedOrigins: () => settings().trusted_origins,
  };
}
