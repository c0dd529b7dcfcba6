import type { Database, Store } from '../store/index.js';
import type { DayKey, DayTotals, DownloadTotalsStore } from './sabnzbd.port.js';

/**
 * Download totals per provider and day in LMDB (`download-totals`, key [day label, provider id]; day labels from
 * calendar.ts). A few hundred records a year per provider: they are all read once at start and kept in memory,
 * so answering `server_stats` or a history poll never touches the disk.
 */
export class LmdbDownloadTotalsStore implements DownloadTotalsStore {
  private readonly db: Database<DayTotals, [string, string]>;
  private readonly days = new Map<string, DayTotals & DayKey>();

  constructor(store: Store) {
    this.db = store.openDb<DayTotals, [string, string]>('download-totals');
    for (const { key, value } of this.db.getRange()) {
      const [day, providerId] = key;
      this.days.set(`${day}\0${providerId}`, { ...value, day, providerId });
    }
  }

  /** Adds to one provider's day; the write is LMDB's asynchronous commit (the memory copy is current at once). */
  add(key: DayKey, delta: DayTotals): Promise<boolean> {
    const id = `${key.day}\0${key.providerId}`;
    const prev = this.days.get(id);
    const next: DayTotals & DayKey = {
      ...key,
      host: delta.host,
      bytes: (prev?.bytes ?? 0) + delta.bytes,
      tried: (prev?.tried ?? 0) + delta.tried,
      failed: (prev?.failed ?? 0) + delta.failed,
    };
    this.days.set(id, next);
    const { day: _d, providerId: _p, ...value } = next;
    return this.db.put([key.day, key.providerId], value);
  }

  /** Resolves when every write so far is on disk. */
  flushed(): Promise<void> {
    return this.db.flushed.then(() => undefined);
  }

  /** Every (day, provider) record. */
  all(): Iterable<DayTotals & DayKey> {
    return this.days.values();
  }
}
