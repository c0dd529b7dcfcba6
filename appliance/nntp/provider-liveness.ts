/**
 * Whether each provider is up, and the announcement of every change (docs/nntp.md, "Provider states"). A provider
 * goes down when its breaker opens, when it refuses our login, or when it allows no connection; it is up again only
 * once it answers (a connection opened, a command answered with its breaker closed), never because time passed. While
 * it is down, the pool probes it with one connection when its cool-down ends, so it is found back without a request
 * needing it. Each change of state or of the connections it allows is emitted once on the sink.
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import { NntpError } from './errors.js';
import type { ProviderState } from './provider-state.js';
import { reasonOf } from './provider-reason.js';
import type {
  ProviderChange,
  ProviderHealth,
  ProviderReason,
  ProviderStateEvent,
  ProviderStateName,
  ProviderStateSink,
} from './provider-state.wire.js';

/** The state a provider is in now, as announced. */
export function stateOf(p: ProviderState): ProviderStateName {
  if (p.removed) return 'removed';
  if (!p.config.enabled) return 'disabled';
  if (p.paused) return 'paused';
  return p.down ? 'cooling_down' : 'usable';
}

/**
 * ok, degraded or blocked, and why (docs/nntp.md, "Provider states"): down is blocked, for the reason of its last
 * failure; up with fewer connections allowed than configured is degraded by a connection limit.
 */
export function healthOf(p: ProviderState): { health: ProviderHealth; reason: ProviderReason | null } {
  if (p.removed || !p.config.enabled) return { health: 'blocked', reason: null };
  if (p.paused) return { health: 'blocked', reason: 'quota_spent' };
  if (p.down) return { health: 'blocked', reason: p.lastReason ?? 'unreachable' };
  const allowed = p.capacity.allowed;
  if (allowed !== undefined && allowed < p.config.max_connections)
    return { health: 'degraded', reason: 'connection_limit' };
  return { health: 'ok', reason: null };
}

function retryAtOf(p: ProviderState, state: ProviderStateName): number | null {
  if (state === 'cooling_down') return p.probe?.at ?? null;
  if (state === 'paused') return p.paused?.until ?? null;
  return null;
}

/** A provider blocked by its account (a refused login, a spent quota) is asked again 15 min on, doubling to 1 h. */
export const ACCOUNT_REPROBE_FIRST_MS = 15 * 60_000;
export const ACCOUNT_REPROBE_MAX_MS = 60 * 60_000;

const accountBlocked = (p: ProviderState) => p.lastReason === 'auth_failed' || p.lastReason === 'quota_spent';

/** The wait before the next probe of a provider its account blocks; each one doubles it, up to the maximum. */
function accountReprobeMs(p: ProviderState): number {
  const ms = Math.min(ACCOUNT_REPROBE_FIRST_MS * 2 ** p.accountProbes, ACCOUNT_REPROBE_MAX_MS);
  p.accountProbes++;
  return ms;
}

export interface LivenessOptions {
  sink: ProviderStateSink | undefined;
  clock: Clock;
  breakerCooldownMs: number;
  /** Opens one connection of `p` that no request waits for (the pool's own, so the cap and metrics see it). */
  probe: (p: ProviderState) => Promise<unknown>;
  logger: Logger | undefined;
}

export class ProviderLiveness {
  private closed = false;

  constructor(private readonly o: LivenessOptions) {}

  /** Takes the provider's state as it is without announcing it (the pool's first provider list). */
  know(p: ProviderState): void {
    p.announced = { state: stateOf(p), allowed: p.capacity.allowed ?? null };
  }

  /**
   * Emits the provider's state if it or the connections it allows differ from what was last announced; `change`
   * says why. Returns whether it emitted.
   */
  announce(p: ProviderState, change: ProviderChange): boolean {
    const state = stateOf(p);
    const allowed = p.capacity.allowed ?? null;
    const last = p.announced;
    if (last && last.state === state && last.allowed === allowed) return false;
    p.announced = { state, allowed };
    const event: ProviderStateEvent = {
      id: p.id,
      state,
      change,
      last_error: p.lastError ?? null,
      allowed_connections: allowed,
      max_connections: p.config.max_connections,
      retry_at: retryAtOf(p, state),
      ...healthOf(p),
    };
    this.o.sink?.emit('provider.state.changed', event);
    return true;
  }

  /** It went down (`change` says how): probed again when it can serve again, announced once. */
  down(p: ProviderState, change: Extract<ProviderChange, 'breaker_opened' | 'auth_failed' | 'cap_changed'>): void {
    if (p.removed || !p.config.enabled) return;
    const now = this.o.clock.now();
    // A refused login or a spent quota is not tried again every cool-down: providers lock accounts that retry a
    // wrong password, and a quota comes back in hours (ACCOUNT_REPROBE_FIRST_MS, doubling).
    const byAccount = change === 'auth_failed' || accountBlocked(p);
    const at = byAccount ? now + accountReprobeMs(p) : Math.max(p.backAt(now), now);
    const wasDown = p.down;
    p.down = true;
    if (!wasDown) p.downs++;
    if (!wasDown || !p.probe || p.probe.at < at) this.scheduleProbe(p, at);
    this.announce(p, change);
  }

  /**
   * It answered (a connection opened, a command answered on a connection opened since it went down): up again if it
   * was down and its breaker is closed. An answer on an older connection says nothing of new ones: a server whose
   * listener stopped may still serve the readers it had (INN's nnrpd outlives innd). Returns whether it came back;
   * the caller announces (with a cap change in the same event when one came with it).
   */
  answered(p: ProviderState, now: number): boolean {
    if (!p.down || now < p.coolingUntil) return false;
    p.down = false;
    p.accountProbes = 0;
    p.probe?.cancel();
    p.probe = undefined;
    return true;
  }

  /** After a config change: what became of each provider (added, enabled, disabled, removed), announced once. */
  configured(p: ProviderState, settingsChanged: boolean): void {
    if (!p.announced) {
      this.announce(p, 'added');
      return;
    }
    if (p.removed || !p.config.enabled) {
      p.down = false;
      p.probe?.cancel();
      p.probe = undefined;
      this.announce(p, p.removed ? 'removed' : 'disabled');
      return;
    }
    this.announce(p, 'enabled');
    // New host, port or credentials: what failed before may not fail now, so ask at once.
    if (p.down && settingsChanged) {
      p.accountProbes = 0;
      this.scheduleProbe(p, this.o.clock.now());
    }
  }

  /** The operator asks a provider that is down to be tried now (its breaker's cool-down ends at once). */
  probeNow(p: ProviderState): boolean {
    if (this.closed || !p.down || p.removed || !p.config.enabled) return false;
    p.coolingUntil = Math.min(p.coolingUntil, this.o.clock.now());
    this.scheduleProbe(p, this.o.clock.now());
    return true;
  }

  close(p: ProviderState): void {
    p.probe?.cancel();
    p.probe = undefined;
  }

  stop(): void {
    this.closed = true;
  }

  private scheduleProbe(p: ProviderState, at: number): void {
    p.probe?.cancel();
    const cancel = this.o.clock.schedule(() => this.runProbe(p), Math.max(0, at - this.o.clock.now()) + 1);
    p.probe = { at, cancel };
  }

  private runProbe(p: ProviderState): void {
    p.probe = undefined;
    if (this.closed || !p.down || p.removed || !p.config.enabled) return;
    const now = this.o.clock.now();
    if (now < p.backAt(now) || p.held > 0 || p.connectionCount >= p.connectionLimit(now)) {
      // Not yet (the breaker opened again meanwhile), or no room: a connection a request opens answers it instead.
      this.scheduleProbe(p, Math.max(p.backAt(now), now + this.o.breakerCooldownMs));
      return;
    }
    this.o.probe(p).catch((err: unknown) => this.probeFailed(p, err));
  }

  /** Still down: set aside for another cool-down (a refused login for longer), and probed again then. */
  private probeFailed(p: ProviderState, err: unknown): void {
    if (this.closed || !p.down || p.removed || !p.config.enabled) return;
    const now = this.o.clock.now();
    const kind = err instanceof NntpError ? err.kind : undefined;
    if (kind === 'provider_capacity') return this.scheduleProbe(p, Math.max(p.backAt(now), now + 1000));
    p.lastError = err instanceof Error ? err.message : String(err);
    p.lastReason = reasonOf(err);
    p.coolingUntil = now + this.o.breakerCooldownMs;
    const at = kind === 'auth' || accountBlocked(p) ? now + accountReprobeMs(p) : p.coolingUntil;
    this.o.logger?.debug('provider still down', { provider: p.id, error: p.lastError });
    this.scheduleProbe(p, at);
  }
}
