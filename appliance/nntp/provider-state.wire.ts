/**
 * A provider's state as the pool announces it (docs/nntp.md, "Provider states"): the payload of the app's
 * `provider.state.changed` event, which the console also receives over the live channel. A wire file: types and
 * constants only, no imports from Node or packages (the console bundles it).
 */

/**
 * `usable`: takes work. `cooling_down`: down, set aside until it answers again (its breaker opened, it refused our
 * login, or it allows no connection now). `paused`: its quota is spent (docs/nntp.md "Quotas and expiry"): it takes
 * no work until the quota's period resets; a pause is no evidence of anything. `disabled`: off in the config.
 * `removed`: gone from the config.
 */
export const PROVIDER_STATES = ['usable', 'cooling_down', 'paused', 'disabled', 'removed'] as const;
export type ProviderStateName = (typeof PROVIDER_STATES)[number];

/**
 * What happened to the provider, the cause of the event: `breaker_opened` (outages in a row, or one TLS failure, put
 * it aside), `auth_failed` (it refused the login), `answered` (it answered again after being down), `cap_changed`
 * (the connections it allows changed: docs/nntp.md, "Connection caps"), `quota_spent` (its quota reached 100%: paused),
 * `quota_reset` (its quota's period reset, or the quota was raised: serving again), `added`, `enabled`, `disabled`, `removed`
 * (a config change).
 */
export const PROVIDER_CHANGES = [
  'breaker_opened',
  'auth_failed',
  'answered',
  'cap_changed',
  'quota_spent',
  'quota_reset',
  'added',
  'enabled',
  'disabled',
  'removed',
] as const;
export type ProviderChange = (typeof PROVIDER_CHANGES)[number];

/**
 * One change of a provider's state or of the connections it allows, emitted once per change by the pool. Why a
 * provider is down (auth, connection limit, quota, throttled, unreachable) is a field of its own to come beside
 * `state`; `change` says only what just happened.
 */
export interface ProviderStateEvent {
  id: string;
  state: ProviderStateName;
  change: ProviderChange;
  /** The last failure the provider gave (a refused connection, a timeout, the login refused); null if none yet. */
  last_error: string | null;
  /** Connections the provider allows (learned from "too many connections" refusals); null: max_connections. */
  allowed_connections: number | null;
  max_connections: number;
  /**
   * When the pool asks it again (the pool's clock, ms since the epoch) while `cooling_down`, or when its quota's
   * period resets while `paused` (null for a lifetime quota); null otherwise.
   */
  retry_at: number | null;
  /** ok, degraded or blocked (disabled and removed providers read `blocked`). */
  health: ProviderHealth;
  /** Why it is degraded or blocked; null when ok (and for a provider disabled or removed in the config). */
  reason: ProviderReason | null;
}

/**
 * Why a provider is not fully serving: `auth_failed` (the login was refused), `connection_limit` (it allows fewer
 * connections than configured, or none now), `quota_spent` (it said the account's bytes are used up), `throttled`
 * (it asked us to slow down), `unreachable` (refused, timed out, reset, TLS or protocol failures).
 */
export const PROVIDER_REASONS = ['auth_failed', 'connection_limit', 'quota_spent', 'throttled', 'unreachable'] as const;
export type ProviderReason = (typeof PROVIDER_REASONS)[number];

/** `ok`: serves fully. `degraded`: serves, with fewer connections than configured. `blocked`: takes no work now. */
export const PROVIDER_HEALTHS = ['ok', 'degraded', 'blocked'] as const;
export type ProviderHealth = (typeof PROVIDER_HEALTHS)[number];

/** Where the pool announces its providers' changes: the app's event bus (an `EventSink<SpoolEvents>`) fits. */
export interface ProviderStateSink {
  emit(name: 'provider.state.changed', payload: ProviderStateEvent): void;
}
