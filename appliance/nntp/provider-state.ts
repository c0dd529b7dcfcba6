/** Runtime state of one provider in the pool: its connections, circuit breaker and counters. */
import type { NntpConnection } from './connection.js';
import { LinkEstimate } from './link-estimate.js';
import { ProviderCapacity } from './provider-capacity.js';
import type { ProviderReason, ProviderStateName } from './provider-state.wire.js';
import type { ProviderConfig } from './types.js';

export interface PooledConnection {
  conn: NntpConnection;
  /** Settings generation it was opened with; older ones take no new work and close when idle. */
  generation: number;
  /** performance.now() of the last BODY/STAT it carried (keepalives do not count). */
  lastWorkAt: number;
  /** The provider's `downs` when it opened: one opened since the provider last went down tells of it now. */
  downs?: number;
}

export interface ProviderCounters {
  bytes: number;
  commands: number;
  errors: number;
  missing: number;
  rttMs: number | undefined;
}

export class ProviderState {
  config: ProviderConfig;
  generation = 0;
  readonly connections = new Set<PooledConnection>();
  opening = 0;
  /** Of those opening, the ones no request is bound to (opened ahead of need). */
  openingAhead = 0;
  /**
   * Holds on its connections (NntpPool.holdConnections: the speed test's, which opens its own): while any is
   * taken the pool opens none to it, gives its connections no new work and closes each once idle.
   */
  held = 0;
  /** Connections closed by the pool whose socket has not closed yet: the provider still counts them. */
  closing = 0;
  /** Removed from config: finishes in-flight work, takes no new work, then disappears. */
  removed = false;
  consecutiveFailures = 0;
  coolingUntil = 0;
  lastError: string | undefined;
  /** Why its last connection or command failed for reasons of the provider (provider-reason.ts). */
  lastReason: ProviderReason | undefined;
  /** Probes since its account blocked it (a refused login, a spent quota): the next waits 15 min doubled so often. */
  accountProbes = 0;
  readonly counters: ProviderCounters = { bytes: 0, commands: 0, errors: 0, missing: 0, rttMs: undefined };
  /** Round trip, transfer and delivery rates measured on this provider's connections. */
  readonly link = new LinkEstimate();
  /** The last TLS session the provider issued: the next connection resumes it (cleared when settings change). */
  tlsSession: Buffer | undefined;
  /** The account's connection cap as learned from capacity refusals (provider-capacity.ts). */
  readonly capacity = new ProviderCapacity();
  /** A connection opened ahead of need failed: no more are opened ahead before this time (the pool's clock). */
  warmBackoffUntil = 0;
  /** Connections opened ahead that failed in a row (warm-pool.ts `warmBackoffMs`); reset by a success. */
  warmFailures = 0;
  /**
   * Down until it answers again (provider-liveness.ts): its breaker opened, it refused our login, or it allows no
   * connection. Unlike `coolingUntil`, this does not lapse with time: only an answer clears it.
   */
  down = false;
  /** Times it went down: an answer on a connection opened before the last time says nothing of it now. */
  downs = 0;
  /** The next probe of a provider that is down: when (the pool's clock), and its cancel. */
  probe: { at: number; cancel: () => void } | undefined;
  /**
   * Paused by its quota (docs/nntp.md "Quotas and expiry"): takes no new work until resumed; `until` is when the
   * quota's period resets (the pool's clock), null for a lifetime quota. Says nothing of any article.
   */
  paused: { until: number | null } | undefined;
  /** What the pool last announced of it (undefined before the first time). */
  announced: { state: ProviderStateName; allowed: number | null; reason?: ProviderReason | null } | undefined;

  constructor(config: ProviderConfig) {
    this.config = config;
  }

  get id(): string {
    return this.config.id;
  }

  /** Open or opening connections count against max_connections. */
  get connectionCount(): number {
    return this.connections.size + this.opening;
  }

  /** Connections that may be open or opening now: max_connections, or fewer while the provider caps the account. */
  connectionLimit(now: number): number {
    return this.capacity.limit(this.config.max_connections, this.connectionCount, now);
  }

  /** When it can serve again: its breaker closes, or it allows a connection again after allowing none. */
  backAt(now: number): number {
    return Math.max(this.coolingUntil, this.capacity.blockedUntil(now));
  }

  /** Enabled and in the config, but its breaker is open (or it allows no connection for now). */
  cooling(now: number): boolean {
    return !this.removed && this.config.enabled && now < this.backAt(now);
  }

  usable(now: number): boolean {
    return !this.removed && this.config.enabled && !this.paused && now >= this.backAt(now);
  }

  /** Enabled and in the config, but paused by its quota: it may have the article, it is just not asked. */
  get pausedByQuota(): boolean {
    return !this.removed && this.config.enabled && this.paused !== undefined;
  }

  recordRtt(ms: number): void {
    this.link.recordRtt(ms);
    this.counters.rttMs = this.link.rttMs;
  }

  /** A failure that says nothing about one article (timeouts, resets, refusals, auth): may trip the breaker. */
  recordFailure(now: number, message: string, threshold: number, cooldownMs: number, tripNow: boolean): boolean {
    this.consecutiveFailures++;
    this.lastError = message;
    if (tripNow || this.consecutiveFailures >= threshold) {
      this.coolingUntil = now + cooldownMs;
      this.consecutiveFailures = 0;
      return true;
    }
    return false;
  }

  recordSuccess(): void {
    this.consecutiveFailures = 0;
  }

  /** Settings that need a new connection when changed. */
  static connectionKey(c: ProviderConfig): string {
    return JSON.stringify([c.host, c.port, c.username, c.password, c.tls, c.insecure_tls, c.ca ?? '']);
  }
}
