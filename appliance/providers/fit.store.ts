import type { Database, Store } from '../store/index.js';
import { FIT_COUNTERS, type FitDay, type FitStore, type WatchedDay } from './fit.port.js';
import type { FitBand, FitCounts } from './fit.wire.js';

type SampleKey = [string, string, string];

/**
 * The fit sampler's counts in LMDB (`provider-fit`, key [UTC day, candidate id, band]) and the seconds watched per
 * day (`provider-watched`, key UTC day). A few hundred records for 30 days: read at start and kept in memory.
 */
export class LmdbFitStore implements FitStore {
  private readonly sampleDb: Database<FitCounts, SampleKey>;
  private readonly watchedDb: Database<number, string>;
  private readonly sampleRecords = new Map<string, FitDay>();
  private readonly watchedDays = new Map<string, number>();

  constructor(store: Store) {
    this.sampleDb = store.openDb<FitCounts, SampleKey>('provider-fit');
    this.watchedDb = store.openDb<number, string>('provider-watched');
    for (const { key, value } of this.sampleDb.getRange()) {
      const [day, candidate, band] = key;
      this.sampleRecords.set(key.join('\0'), { day, candidate, band: band as FitBand, ...value });
    }
    for (const { key, value } of this.watchedDb.getRange()) this.watchedDays.set(key, value);
  }

  samples(): Iterable<FitDay> {
    return [...this.sampleRecords.values()].map((r) => ({ ...r }));
  }

  addSamples(r: FitDay): Promise<boolean> {
    const key: SampleKey = [r.day, r.candidate, r.band];
    const prev = this.sampleRecords.get(key.join('\0'));
    const counts = Object.fromEntries(FIT_COUNTERS.map((c) => [c, (prev?.[c] ?? 0) + r[c]])) as unknown as FitCounts;
    this.sampleRecords.set(key.join('\0'), { day: r.day, candidate: r.candidate, band: r.band, ...counts });
    return this.sampleDb.put(key, counts);
  }

  watched(): Iterable<WatchedDay> {
    return [...this.watchedDays].map(([day, seconds]) => ({ day, seconds }));
  }

  addWatched(r: WatchedDay): Promise<boolean> {
    const seconds = (this.watchedDays.get(r.day) ?? 0) + r.seconds;
    this.watchedDays.set(r.day, seconds);
    return this.watchedDb.put(r.day, seconds);
  }

  async dropBefore(day: string): Promise<void> {
    for (const [id, r] of this.sampleRecords) if (r.day < day) this.sampleRecords.delete(id);
    for (const d of this.watchedDays.keys()) if (d < day) this.watchedDays.delete(d);
    for (const { key } of this.sampleDb.getRange({ end: [day] })) await this.sampleDb.remove(key);
    for (const { key } of this.watchedDb.getRange({ end: day })) await this.watchedDb.remove(key);
  }
}
