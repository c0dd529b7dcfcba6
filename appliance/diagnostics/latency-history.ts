import type { Clock } from '../clock/clock.js';
import type { DiagnosticFinding } from './diagnostics.wire.js';
import { finding } from './finding.js';

/** One provider's smoothed round trip now (the pool's `rtt_ms`), null before it answered anything. */
export interface ProviderRtt {
  id: string;
  rttMs: number | null;
}

export const SAMPLE_EVERY_MS = 5 * 60_000;
/** A day of samples per provider. */
const KEEP = 288;
/** Fewer samples than this (half an hour) is no past to compare with. */
export const MIN_PAST_SAMPLES = 6;
const SLOWER_FACTOR = 3;
const SLOWER_MIN_MS = 100;

/**
 * Each provider's round trip sampled every five minutes from the pool, the last day kept in memory (it starts empty
 * at every start), so a provider answering slower than its own past is noticed.
 */
export class LatencyHistory {
  private readonly samples = new Map<string, number[]>();
  private cancel: (() => void) | null = null;

  constructor(
    private readonly read: () => ProviderRtt[],
    private readonly clock: Pick<Clock, 'schedule'>,
  ) {}

  start(): () => void {
    const tick = () => {
      this.sample();
      this.cancel = this.clock.schedule(tick, SAMPLE_EVERY_MS);
    };
    this.cancel = this.clock.schedule(tick, SAMPLE_EVERY_MS);
    return () => this.cancel?.();
  }

  /** Takes one sample of every provider now. */
  sample(): void {
    for (const { id, rttMs } of this.read()) {
      if (rttMs === null) continue;
      const list = this.samples.get(id) ?? [];
      list.push(rttMs);
      if (list.length > KEEP) list.shift();
      this.samples.set(id, list);
    }
  }

  /** Providers whose round trip now is well above the median of their past samples. */
  findings(): DiagnosticFinding[] {
    const out: DiagnosticFinding[] = [];
    for (const { id, rttMs } of this.read()) {
      const past = this.samples.get(id) ?? [];
      if (rttMs === null || past.length < MIN_PAST_SAMPLES) continue;
      const usual = median(past);
      if (rttMs < usual * SLOWER_FACTOR || rttMs - usual < SLOWER_MIN_MS) continue;
      out.push(
        finding(
          'provider_latency',
          'providers',
          'warning',
          `Provider ${id} answers in ${Math.round(rttMs)} ms now; over the last ${hours(past.length)} it answered in ` +
            `${Math.round(usual)} ms (median).`,
          'Playback needs prompt answers: check the route to the provider (a VPN, a congested uplink) and its status ' +
            'page; if it stays slow, lower its priority or move it to the backup tier in Configuration > Providers.',
        ),
      );
    }
    return out;
  }
}

function hours(samples: number): string {
  const h = (samples * SAMPLE_EVERY_MS) / 3_600_000;
  return h < 1 ? `${Math.round(h * 60)} minutes` : `${Math.round(h)} hours`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
