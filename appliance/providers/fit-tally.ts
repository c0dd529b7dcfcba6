import type { Clock } from '../clock/clock.js';
import { FIT_COUNTERS, noCounts, type FitDay, type FitStore, type WatchedDay } from './fit.port.js';
import type { FitBand, FitCounts } from './fit.wire.js';

const DAY_MS = 86_400_000;
/** UTC days kept, today included: the report's and the cost view's window. */
export const FIT_DAYS_KEPT = 30;

export function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The fit sampler's counts and the seconds watched, by UTC day: counted in memory and added to the store once a
 * minute and at close (each node adds its own, like availability.ts); `samples()` and `watched()` are the store's
 * days plus what is not flushed yet.
 */
export class FitTally {
  private samplesPending = new Map<string, FitDay>();
  private watchedPending = new Map<string, number>();

  constructor(private readonly o: { store: FitStore; clock: Pick<Clock, 'now'> }) {}

  count(candidate: string, band: FitBand, counter: keyof FitCounts): void {
    const day = dayOf(this.o.clock.now());
    const id = `${day}\0${candidate}\0${band}`;
    let r = this.samplesPending.get(id);
    if (!r) this.samplesPending.set(id, (r = { day, candidate, band, ...noCounts() }));
    r[counter]++;
  }

  watch(seconds: number): void {
    if (!(seconds > 0)) return;
    const day = dayOf(this.o.clock.now());
    this.watchedPending.set(day, (this.watchedPending.get(day) ?? 0) + seconds);
  }

  samples(): FitDay[] {
    return [...this.o.store.samples(), ...this.samplesPending.values()];
  }

  watched(): WatchedDay[] {
    const pending = [...this.watchedPending].map(([day, seconds]) => ({ day, seconds }));
    return [...this.o.store.watched(), ...pending];
  }

  /** Adds what was counted since the last flush to the store and drops the days no longer kept. */
  async flush(): Promise<void> {
    const samples = [...this.samplesPending.values()];
    const watched = [...this.watchedPending];
    this.samplesPending = new Map();
    this.watchedPending = new Map();
    for (const r of samples) if (FIT_COUNTERS.some((c) => r[c] > 0)) await this.o.store.addSamples(r);
    for (const [day, seconds] of watched) await this.o.store.addWatched({ day, seconds: Math.round(seconds) });
    await this.o.store.dropBefore(dayOf(this.o.clock.now() - (FIT_DAYS_KEPT - 1) * DAY_MS));
  }
}
