import type { Database, Store } from '../store/index.js';
import type { FetchedBytesStore } from './fetched-bytes.port.js';
import { FETCH_CLASSES, type FetchedBytesDay, type FetchClass } from './streams.wire.js';

/**
 * Bytes the pool fetched per class per UTC day in LMDB (`stream-fetched-bytes`, key: the day). The days kept (30 by
 * default) are read once and kept in memory, so `all()` sees an add at once, before LMDB commits it.
 */
export class LmdbFetchedBytesStore implements FetchedBytesStore {
  private readonly db: Database<Record<FetchClass, number>, string>;
  private readonly days = new Map<string, Record<FetchClass, number>>();

  constructor(store: Store) {
    this.db = store.openDb<Record<FetchClass, number>, string>('stream-fetched-bytes');
    for (const { key, value } of this.db.getRange()) this.days.set(key, value);
  }

  *all(): Iterable<FetchedBytesDay> {
    for (const [day, bytes] of [...this.days].sort(([a], [b]) => (a < b ? -1 : 1))) yield { day, bytes: { ...bytes } };
  }

  add(day: FetchedBytesDay): Promise<boolean> {
    const sum = { ...this.days.get(day.day) } as Record<FetchClass, number>;
    for (const c of FETCH_CLASSES) sum[c] = (sum[c] ?? 0) + (day.bytes[c] ?? 0);
    this.days.set(day.day, sum);
    return this.db.put(day.day, sum);
  }

  async dropBefore(day: string): Promise<void> {
    for (const d of this.days.keys()) if (d < day) this.days.delete(d);
    for (const { key } of this.db.getRange({ end: day })) await this.db.remove(key);
  }
}
