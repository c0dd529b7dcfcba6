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
  /** "ok", "degraded: connection limit", "blocked: quota spent" (docs/nntp.md "Provider states"). */
  health?: string;
  /** Down (not paused): a manual re-probe may bring it back. */
  probeable?: boolean;
}

const REASONS: Record<string, string> = {
  auth_failed: 'auth failed',
  connection_limit: 'connection limit',
  quota_spent: 'quota spent',
  throttled: 'throttled',
  unreachable: 'unreachable',
};

export function providerStatus(
  m:
    | (Pick<ProviderMetrics, 'allowed_connections' | 'max_connections' | 'state' | 'last_error'> &
        Partial<Pick<ProviderMetrics, 'health' | 'reason'>>)
    | undefined,
): ProviderStatus {
  if (!m) return {};
  return {
    allowed:
      m.allowed_connections === null
        ? undefined
        : `${m.allowed_connections} of ${m.max_connections} allowed by the provider`,
    cooling: m.state === 'cooling_down' && m.allowed_connections !== 0 ? (m.last_error ?? 'Cooling down') : undefined,
    health: m.health && (m.reason ? `${m.health}: ${REASONS[m.reason] ?? m.reason}` : m.health),
    probeable: m.state === 'cooling_down',
  };
}
