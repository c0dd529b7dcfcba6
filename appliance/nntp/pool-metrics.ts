/** Pool counters and the metrics snapshot (its wire shape: pool.wire.ts). */
import type { PoolMetrics } from './pool.wire.js';
import { healthOf, stateOf } from './provider-liveness.js';
import type { ProviderState } from './provider-state.js';

const WINDOW = 1000;
const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

export class PoolStats {
  private bytes = 0;
  private commands = 0;
  private errors = 0;
  private readonly waits = new Float64Array(WINDOW);
  private waitCount = 0;

  addBytes(p: ProviderState, n: number): void {
    this.bytes += n;
    p.counters.bytes += n;
  }

  recordCommand(p: ProviderState): void {
    this.commands++;
    p.counters.commands++;
  }

  recordError(p: ProviderState): void {
    this.errors++;
    p.counters.errors++;
  }

  recordMissing(p: ProviderState): void {
    p.counters.missing++;
  }

  recordWait(ms: number): void {
    this.waits[this.waitCount % WINDOW] = ms;
    this.waitCount++;
  }

  snapshot(providers: ProviderState[], waiting: number, now: number): PoolMetrics {
    const n = Math.min(this.waitCount, WINDOW);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += this.waits[i]!;
    const inFlight = (p: ProviderState) => {
      let n = 0;
      for (const pc of p.connections) n += pc.conn.inflight;
      return n;
    };
    return {
      active_connections: providers.reduce((s, p) => s + p.connections.size, 0),
      total_bytes_downloaded: this.bytes,
      command_success_rate_percent:
        this.commands === 0 ? 100 : Math.round((100 - pct(this.errors, this.commands)) * 10) / 10,
      error_rate_percent: pct(this.errors, this.commands),
      acquire_wait_time_ms: n === 0 ? 0 : Math.round((sum / n) * 100) / 100,
      waiting_requests: waiting,
      in_flight_commands: providers.reduce((s, p) => s + inFlight(p), 0),
      providers: providers.map((p) => ({
        id: p.id,
        host: p.config.host,
        is_backup_provider: p.config.is_backup_provider,
        enabled: p.config.enabled && !p.removed,
        active_connections: p.connections.size,
        max_connections: p.config.max_connections,
        allowed_connections: p.capacity.allowed ?? null,
        in_flight_commands: inFlight(p),
        bytes_downloaded: p.counters.bytes,
        commands: p.counters.commands,
        errors: p.counters.errors,
        missing_articles: p.counters.missing,
        missing_rate_percent: pct(p.counters.missing, p.counters.commands),
        error_rate_percent: pct(p.counters.errors, p.counters.commands),
        rtt_ms: p.counters.rttMs === undefined ? null : Math.round(p.counters.rttMs * 100) / 100,
        state: stateOf(p),
        ...healthOf(p),
        cooling_down: now < p.coolingUntil,
        last_error: p.lastError ?? null,
      })),
    };
  }
}
