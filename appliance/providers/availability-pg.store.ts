import type { Logger } from '../logging/logger.js';
import { PgCounters } from '../store/pg/pg-counters.js';
import type { PgDb } from '../store/pg/index.js';
import type { AvailabilityDay, AvailabilityStore } from './availability.port.js';
import type { AgeBand } from './availability.wire.js';

/**
 * Availability counts in PostgreSQL (`provider_availability`, key day, provider, post-age band). Each node adds
 * what its own pool saw since its last flush (`had = had + n`), so every node shows every node's sum; `all()`
 * answers from the copy kept in memory (store/pg/pg-counters.ts, channel `spool_providers`).
 */
export class PgAvailabilityStore implements AvailabilityStore {
  private constructor(private readonly counters: PgCounters<'day' | 'provider' | 'band', 'had' | 'missing', never>) {}

  static async open(db: PgDb, logger: Logger, refreshMs?: number): Promise<PgAvailabilityStore> {
    const spec = {
      table: 'provider_availability',
      keys: ['day', 'provider', 'band'] as const,
      counters: ['had', 'missing'] as const,
      labels: [] as const,
      channel: 'spool_providers',
      refreshMs,
    };
    return new PgAvailabilityStore(await PgCounters.open(db, spec, logger));
  }

  *all(): Iterable<AvailabilityDay> {
    const rows = [...this.counters.rows()].sort((a, b) =>
      `${a.day}\0${a.provider}\0${a.band}` < `${b.day}\0${b.provider}\0${b.band}` ? -1 : 1,
    );
    for (const r of rows)
      yield { day: r.day, provider: r.provider, band: r.band as AgeBand, had: r.had, missing: r.missing };
  }

  add(r: AvailabilityDay): Promise<void> {
    return this.counters.add({ day: r.day, provider: r.provider, band: r.band, had: r.had, missing: r.missing });
  }

  dropBefore(day: string): Promise<void> {
    return this.counters.deleteWhere('day < $1', [day], (row) => row.day < day);
  }

  /** Resolves when every add so far is stored. */
  flushed(): Promise<void> {
    return this.counters.flushed();
  }

  /** Stops the re-reads (await `flushed()` first to keep the last adds). */
  close(): void {
    this.counters.close();
  }
}
