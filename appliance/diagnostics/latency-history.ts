import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { DiagnosticFinding } from './diagnostics.wire.js';
import { finding } from './finding.js';
import type { LatencyStore } from './latency.port.js';

/** One provider's smoothed round trip now (the pool's `rtt_ms`), null before it answered anything. */
export interface ProviderRtt {
  id: string;
  rttMs: number | null;
}

export const SAMPLE_EVERY_MS = 5 * 60_000;
export const HOUR_MS = 3_600_000;
/** The past the check compares with, and what the store keeps: 30 days of hourly buckets. */
export const KEEP_DAYS = 30;
const KEEP_MS = KEEP_DAYS * 24 * HOUR_MS;
/** Fewer samples than this (half an hour) is no past to compare with. */
export const MIN_PAST_SAMPLES = 6;
const SLOWER_FACTOR = 3;
const SLOWER_MIN_MS = 100;

export const hourOf = (at: number): number => Math.floor(at / HOUR_MS) * HOUR_MS;

/**
 * Each provider's round trip sampled every five minutes from the pool and kept in the store (hourly buckets, 30
 * days: latency.port.ts), so a provider answering slower than its own past is noticed, also after a restart.
 */
export class LatencyHistory {
  private cancel: (() => void) | null = null;
  /** The hour the last prune ran in: old buckets are dropped once an hour. */
  private prunedHour = 0;
  /** Samples the timer started that have not finished writing (the stop waits for them). */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly read: () => ProviderRtt[],
    private readonly clock: Pick<Clock, 'schedule' | 'now'>,
    private readonly store: LatencyStore,
    private readonly logger?: Logger,
  ) {}

  /**
   * Samples every five minutes until the returned stop, which also waits for a sample still writing: the store is
   * closed after it (app/lifetime.ts), and an LMDB write left in flight over the close of its environment crashed
   * or hung the process.
   */
  start(): () => Promise<void> {
    const tick = () => {
      const write = this.sample().catch((err: unknown) =>
        this.logger?.warn('provider round trip not recorded', { error: (err as Error).message }),
      );
      this.writing.add(write);
      void write.finally(() => this.writing.delete(write));
      this.cancel = this.clock.schedule(tick, SAMPLE_EVERY_MS);
    };
    this.cancel = this.clock.schedule(tick, SAMPLE_EVERY_MS);
    return async () => {
      this.cancel?.();
      await Promise.all(this.writing);
    };
  }

  /** Takes one sample of every provider now, into the bucket of this hour; drops buckets past 30 days hourly. */
  async sample(): Promise<void> {
    const hour = hourOf(this.clock.now());
    for (const { id, rttMs } of this.read()) {
      if (rttMs !== null) await this.store.add(id, hour, rttMs);
    }
    if (hour === this.prunedHour) return;
    this.prunedHour = hour;
    await this.store.dropBefore(hour - KEEP_MS);
  }

  /** Providers whose round trip now is well above the median of their samples of the last 30 days. */
  async findings(): Promise<DiagnosticFinding[]> {
    const pasts = await this.pasts();
    const out: DiagnosticFinding[] = [];
    for (const { id, rttMs } of this.read()) {
      const past = pasts.get(id) ?? [];
      if (rttMs === null || past.length < MIN_PAST_SAMPLES) continue;
      const usual = median(past);
      if (rttMs < usual * SLOWER_FACTOR || rttMs - usual < SLOWER_MIN_MS) continue;
      out.push(
        finding(
          'provider_latency',
          'providers',
          'warning',
          `Provider ${id} answers in ${Math.round(rttMs)} ms now; over ${span(past.length)} of samples in the last ` +
            `${KEEP_DAYS} days it answered in ${Math.round(usual)} ms (median).`,
          'Playback needs prompt answers: check the route to the provider (a VPN, a congested uplink) and its status ' +
            'page; if it stays slow, lower its priority or move it to the backup tier in Configuration > Providers.',
        ),
      );
    }
    return out;
  }

  /** Each provider's samples of the last 30 days, from the store. */
  private async pasts(): Promise<Map<string, number[]>> {
    const pasts = new Map<string, number[]>();
    for (const b of await this.store.since(hourOf(this.clock.now()) - KEEP_MS)) {
      const list = pasts.get(b.provider) ?? [];
      list.push(...b.samples);
      pasts.set(b.provider, list);
    }
    return pasts;
  }
}

/** How long `samples` samples took to take, in words. */
function span(samples: number): string {
  const h = (samples * SAMPLE_EVERY_MS) / HOUR_MS;
  if (h < 1) return `${Math.round(h * 60)} minutes`;
  return h < 48 ? `${Math.round(h)} hours` : `${Math.round(h / 24)} days`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
