import type { ProviderMetrics } from '../../../../api/types';

/** What the pool knows of a provider right now (GET /system/pool/metrics), as the provider row shows it. */
export interface ProviderStatus {
  /** "3 of 8 allowed by the provider": its account allows fewer connections than configured (docs/nntp.md). */
  allowed?: string;
  /**
   * Down as the pool announces it (`provider.state.changed`: its breaker opened, it refused the login) until it
   * answers again, with the error that did it. Down because it allows no connection, it shows as "0 of N allowed by
   * the provider" instead: a connection limit, not a fault of the provider.
   */
  cooling?: string;
}

export function providerStatus(
  m: Pick<ProviderMetrics, 'allowed_connections' | 'max_connections' | 'state' | 'last_error'> | undefined,
): ProviderStatus {
  if (!m) return {};
  return {
    allowed:
      m.allowed_connections === null
        ? undefined
        : `${m.allowed_connections} of ${m.max_connections} allowed by the provider`,
    cooling: m.state === 'cooling_down' && m.allowed_connections !== 0 ? (m.last_error ?? 'Cooling down') : undefined,
  };
}
