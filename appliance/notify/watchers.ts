import type { ProviderStateEvent } from '../events/live.wire.js';
import type { PoolMetrics } from '../nntp/pool.wire.js';
import type { Notice } from './notice.js';
import { notices } from './notices.js';

/**
 * A provider's state changes (the pool announces each once: nntp/provider-liveness.ts), told as "down" (it went
 * cooling down: its breaker opened, it refused the login, or it allows no connection) and "back" (it answered again), and as "near its cap" when it allows fewer connections than configured (a learned cap) or
 * when every connection it allows is busy with requests waiting. Each is said once per change, not on every event.
 */
export class ProviderWatch {
  private readonly down = new Set<string>();
  private readonly capped = new Map<string, number>();
  private readonly saturated = new Set<string>();

  state(e: ProviderStateEvent, now: number): Notice[] {
    const out: Notice[] = [];
    if (e.state === 'removed' || e.state === 'disabled') {
      this.down.delete(e.id);
      this.capped.delete(e.id);
      return out;
    }
    if (e.state === 'cooling_down' && !this.down.has(e.id)) {
      this.down.add(e.id);
      out.push(notices.providerDown(e.id, e.last_error, now));
    } else if (e.state === 'usable' && this.down.delete(e.id)) {
      out.push(notices.providerUp(e.id, now));
    }
    const allowed = e.allowed_connections;
    const max = e.max_connections;
    if (allowed !== null && allowed > 0 && allowed < max) {
      if (this.capped.get(e.id) !== allowed) {
        out.push(
          notices.providerNearCap(e.id, `it allows ${allowed} of the ${max} connections configured`, allowed, max, now),
        );
      }
      this.capped.set(e.id, allowed);
    } else if (allowed === null) this.capped.delete(e.id);
    return out;
  }

  metrics(m: PoolMetrics, now: number): Notice[] {
    const out: Notice[] = [];
    for (const p of m.providers) {
      const limit = p.allowed_connections ?? p.max_connections;
      const full = p.enabled && limit > 0 && m.waiting_requests > 0 && p.active_connections >= limit;
      if (full && !this.saturated.has(p.id)) {
        this.saturated.add(p.id);
        const why = `all ${limit} connections it allows are busy and ${m.waiting_requests} requests wait`;
        out.push(notices.providerNearCap(p.id, why, p.active_connections, p.max_connections, now));
      } else if (!full) this.saturated.delete(p.id);
    }
    return out;
  }
}

/**
 * Streams that waited too long for data: the stream events carry the total time a stream spent stalled
 * (`stalled_ms`, waits over 1 s); when it grew by `stall_seconds` or more since the last event, the stream is said
 * to have stalled.
 */
export class StallWatch {
  private readonly streams = new Map<string, { path: string; stalledMs: number }>();

  opened(id: string, path: string): void {
    this.streams.set(id, { path, stalledMs: 0 });
  }

  progress(id: string, stalledMs: number, thresholdMs: number, now: number): Notice | undefined {
    const s = this.streams.get(id);
    if (!s) return undefined;
    const grew = stalledMs - s.stalledMs;
    s.stalledMs = stalledMs;
    return grew >= thresholdMs ? notices.streamStalled(s.path, grew, now) : undefined;
  }

  closed(id: string, stalledMs: number, thresholdMs: number, now: number): Notice | undefined {
    const notice = this.progress(id, stalledMs, thresholdMs, now);
    this.streams.delete(id);
    return notice;
  }
}

/**
 * The health backlog: files waiting for their first check, sampled once a window; when the count rose by
 * `growth` or more since the window's first sample, it is said, and the next window starts from there.
 */
export class BacklogWatch {
  private base: number | null = null;

  sample(pending: number, growth: number, windowMinutes: number, now: number): Notice | undefined {
    const base = this.base;
    this.base = pending;
    if (base === null) return undefined;
    const grew = pending - base;
    return grew >= growth ? notices.healthBacklog(pending, grew, windowMinutes, now) : undefined;
  }
}
