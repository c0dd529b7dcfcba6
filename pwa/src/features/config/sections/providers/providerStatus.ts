import type { ProviderMetrics } from '../../../../api/types';

/** What the pool knows of a provider right now (GET /system/pool/metrics), as the provider row shows it. */
export interface ProviderStatus {
  /** "3 of 8 allowed by the provider": its account allows fewer connections than configured (docs/nntp.md). */
  allowed?: string;
  /** Set aside by its circuit breaker, with the error that did it. */
  cooling?: string;
}

export function providerStatus(
  m: Pick<ProviderMetrics, 'allowed_connections' | 'max_connections' | 'cooling_down' | 'last_error'> | undefined,
): ProviderStatus {
  if (!m) return {};
  return {
    allowed:
      m.allowed_connections === null
        ? undefined
        : `${m.allowed_connections} of ${m.max_connections} allowed by the provider`,
    cooling: m.cooling_down ? (m.last_error ?? 'Cooling down') : undefined,
  };
}
