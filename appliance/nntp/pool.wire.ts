/**
 * Wire shape of GET /api/system/pool/metrics (docs/console-contract.md: Pool metrics) plus the per-provider
 * breakdown. A wire file: types only, no imports from Node or packages (the console bundles it).
 */
import type { ProviderHealth, ProviderReason, ProviderStateName } from './provider-state.wire.js';

export interface ProviderMetrics {
  id: string;
  host: string;
  is_backup_provider: boolean;
  enabled: boolean;
  active_connections: number;
  max_connections: number;
  /**
   * Connections the provider allows this account, learned when it refused one for capacity ("481 Too many
   * connections"); null while it allows max_connections (docs/nntp.md, "Connection caps").
   */
  allowed_connections: number | null;
  in_flight_commands: number;
  bytes_downloaded: number;
  commands: number;
  errors: number;
  missing_articles: number;
  missing_rate_percent: number;
  error_rate_percent: number;
  rtt_ms: number | null;
  /**
   * The provider's state as the pool announces it (`provider.state.changed`): `cooling_down` from the moment it
   * went down until it answers again, which may outlast `cooling_down` below (its breaker's own cool-down).
   */
  state: ProviderStateName;
  /** ok, degraded or blocked, and why (docs/nntp.md "Provider states"); reason null when ok. */
  health: ProviderHealth;
  reason: ProviderReason | null;
  /** Its breaker is open now: requests go elsewhere until the cool-down ends. */
  cooling_down: boolean;
  last_error: string | null;
}

export interface PoolMetrics {
  active_connections: number;
  total_bytes_downloaded: number;
  /** Commands answered properly (a 430 "no such article" is a proper answer) out of all commands. */
  command_success_rate_percent: number;
  /** Commands that failed (timeouts, resets, refusals, auth, corrupt data) out of all commands. */
  error_rate_percent: number;
  /** Mean time a request waited for a connection slot, over the last 1,000 requests. */
  acquire_wait_time_ms: number;
  waiting_requests: number;
  /** Commands sent on connections and not answered yet (articles in flight), summed over providers. */
  in_flight_commands: number;
  providers: ProviderMetrics[];
}
