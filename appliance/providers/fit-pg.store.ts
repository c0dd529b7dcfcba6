import type { Logger } from '../logging/logger.js';
import { PgCounters } from '../store/pg/pg-counters.js';
import type { PgDb } from '../store/pg/index.js';
import { FIT_COUNTERS, type FitDay, type FitStore, type WatchedDay } from './fit.port.js';
import type { FitBand } from './fit.wire.js';

type Counter = (typeof FIT_COUNTERS)[number];

/**
 * The fit sampler's counts (`provider_fit`, key day, candidate, band) and the seconds watched per day
 * (`provider_watched`) in PostgreSQL: each add is an increment, and every node answers from its copy in memory
 * (store/pg/pg-counters.ts, channel `spool_provider_fit`).
 */
export class PgFitStore implements FitStore {
  private constructor(
    private readonly sampleCounters: PgCounters<'day' | 'candidate' | 'band', Counter, never>,
    private readonly watchedCounters: PgCounters<'day', 'seconds', never>,
  ) {}

  static async open(db: PgDb, logger: Logger, refreshMs?: number): Promise<PgFitStore> {
    const samples = {
      table: 'provider_fit',
      keys: ['day', 'candidate', 'band'] as const,
      counters: FIT_COUNTERS,
      labels: [] as const,
      channel: 'spool_provider_fit',
      refreshMs,
    };
    const watched = {
      table: 'provider_watched',
      keys: ['day'] as const,
      counters: ['seconds'] as const,
      labels: [] as const,
      channel: 'spool_provider_fit',
      refreshMs,
    };
    return new PgFitStore(await PgCounters.open(db, samples, logger), await PgCounters.open(db, watched, logger));
  }

  *samples(): Iterable<FitDay> {
    for (const r of this.sampleCounters.rows()) yield { ...r, band: r.band as FitBand };
  }

  addSamples(r: FitDay): Promise<void> {
    return this.sampleCounters.add({ ...r });
  }

  *watched(): Iterable<WatchedDay> {
    for (const r of this.watchedCounters.rows()) yield { day: r.day, seconds: r.seconds };
  }

  addWatched(r: WatchedDay): Promise<void> {
    return this.watchedCounters.add({ day: r.day, seconds: Math.round(r.seconds) });
  }

  async dropBefore(day: string): Promise<void> {
    await this.sampleCounters.deleteWhere('day < $1', [day], (row) => row.day < day);
    await this.watchedCounters.deleteWhere('day < $1', [day], (row) => row.day < day);
  }

  async flushed(): Promise<void> {
    await this.sampleCounters.flushed();
    await this.watchedCounters.flushed();
  }

  close(): void {
    this.sampleCounters.close();
    this.watchedCounters.close();
  }
}
