import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import { dayLabel, monthPrefix, weekStartLabel } from './calendar.js';
import type { DownloadTotalsStore } from './sabnzbd.port.js';

/** A provider's counters since the pool started (the pool's metrics: appliance/nntp/pool.wire.ts). */
export interface ProviderCounters {
  id: string;
  host: string;
  bytes: number;
  tried: number;
  failed: number;
}

export interface Sums {
  total: number;
  month: number;
  week: number;
  day: number;
}

/** SABnzbd's `server_stats` for one server (docs/sabnzbd.md, "Download totals"). */
export interface ServerStats extends Sums {
  daily: Record<string, number>;
  articles_tried: Record<string, number>;
  /** As in SABnzbd, which fills this key with the articles the server did NOT deliver (its own UI reads it so). */
  articles_success: Record<string, number>;
}

export interface DownloadTotalsDeps {
  store: DownloadTotalsStore;
  clock: Clock;
  /** The pool's counters now: they only grow, and start again from 0 when a pool or a provider is made anew. */
  counters: () => ProviderCounters[];
  logger: Logger;
  /** How often the counters are moved into the day's totals (also on every read and on close). */
  sampleMs?: number;
}

const COUNTERS = ['bytes', 'tried', 'failed'] as const;

/**
 * Real download totals for SABnzbd's `server_stats` and the history's `*_size`: the pool counts bytes and
 * requests per provider in memory; this moves what they grew by since the last look into today's bucket in LMDB
 * (once a minute, before every answer, and on close), so the totals survive restarts. Bytes are counted on the
 * day they are moved, so a minute's worth may land on the next day at midnight.
 */
export class DownloadTotals {
  private readonly seen = new Map<string, ProviderCounters>();
  private cancel: (() => void) | undefined;
  private closed = false;

  constructor(private readonly d: DownloadTotalsDeps) {}

  start(): void {
    const every = this.d.sampleMs ?? 60_000;
    const loop = () => {
      this.sample();
      if (!this.closed) this.cancel = this.d.clock.schedule(loop, every);
    };
    this.cancel = this.d.clock.schedule(loop, every);
  }

  /** Moves what every provider's counters grew by since the last call into today's totals. */
  sample(): void {
    const day = dayLabel(this.d.clock.now());
    for (const now of this.d.counters()) {
      const before = this.seen.get(now.id);
      this.seen.set(now.id, { ...now });
      // A counter below what we saw: the pool (or that provider) was made anew and counts from 0 again.
      const base = before && COUNTERS.every((k) => now[k] >= before[k]) ? before : undefined;
      const delta = { host: now.host, bytes: 0, tried: 0, failed: 0 };
      for (const k of COUNTERS) delta[k] = now[k] - (base?.[k] ?? 0);
      if (delta.bytes === 0 && delta.tried === 0 && delta.failed === 0) continue;
      this.d.store.add({ day, providerId: now.id }, delta).catch((err: Error) => {
        this.d.logger.error('could not store download totals', { error: err.message });
      });
    }
  }

  /** Totals of every provider, removed ones included (as SABnzbd's grand totals). */
  sums(): Sums {
    this.sample();
    const sums: Sums = { total: 0, month: 0, week: 0, day: 0 };
    const at = this.periods();
    for (const r of this.d.store.all()) addTo(sums, r.day, r.bytes, at);
    return sums;
  }

  /** Per provider id: the sums, the bytes per day and the article counts per day. */
  byProvider(): Map<string, ServerStats> {
    this.sample();
    const at = this.periods();
    const out = new Map<string, ServerStats>();
    for (const r of this.d.store.all()) {
      let s = out.get(r.providerId);
      if (!s) {
        s = { total: 0, month: 0, week: 0, day: 0, daily: {}, articles_tried: {}, articles_success: {} };
        out.set(r.providerId, s);
      }
      addTo(s, r.day, r.bytes, at);
      s.daily[r.day] = r.bytes;
      s.articles_tried[r.day] = r.tried;
      s.articles_success[r.day] = r.failed;
    }
    return out;
  }

  /** Stops the timer and counts what the pool still holds (call before the pool closes). */
  close(): void {
    this.closed = true;
    this.cancel?.();
    this.sample();
  }

  private periods() {
    const now = this.d.clock.now();
    return { day: dayLabel(now), week: weekStartLabel(now), month: monthPrefix(now) };
  }
}

function addTo(s: Sums, day: string, bytes: number, at: { day: string; week: string; month: string }): void {
  s.total += bytes;
  if (day.startsWith(at.month)) s.month += bytes;
  if (day >= at.week && day <= at.day) s.week += bytes;
  if (day === at.day) s.day += bytes;
}
