import type { Database, Store } from '../store/index.js';
import type { AvailabilityDay, AvailabilityStore } from './availability.port.js';
import type { AgeBand, AvailabilityCounts } from './availability.wire.js';

type Key = [string, string, string];

/**
 * Availability counts in LMDB (`provider-availability`, key [UTC day, provider id, post-age band]). The 30 days kept
 * are a few hundred records: read once at start and kept in memory, so `all()` sees an add at once.
 */
export class LmdbAvailabilityStore implements AvailabilityStore {
  private readonly db: Database<AvailabilityCounts, Key>;
  private readonly records = new Map<string, AvailabilityDay>();

  constructor(store: Store) {
    this.db = store.openDb<AvailabilityCounts, Key>('provider-availability');
    for (const { key, value } of this.db.getRange()) {
      const [day, provider, band] = key;
      this.records.set(key.join('\0'), { day, provider, band: band as AgeBand, ...value });
    }
  }

  all(): Iterable<AvailabilityDay> {
    return [...this.records.values()].map((r) => ({ ...r }));
  }

  add(r: AvailabilityDay): Promise<boolean> {
    const key: Key = [r.day, r.provider, r.band];
    const prev = this.records.get(key.join('\0'));
    const counts = { had: (prev?.had ?? 0) + r.had, missing: (prev?.missing ?? 0) + r.missing };
    this.records.set(key.join('\0'), { day: r.day, provider: r.provider, band: r.band, ...counts });
    return this.db.put(key, counts);
  }

  async dropBefore(day: string): Promise<void> {
    for (const [id, r] of this.records) if (r.day < day) this.records.delete(id);
    for (const { key } of this.db.getRange({ end: [day] })) await this.db.remove(key);
  }
}
