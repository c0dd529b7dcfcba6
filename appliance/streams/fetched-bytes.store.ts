import type { Database, Store } from '../store/index.js';
import type { FetchedBytesStore } from './fetched-bytes.port.js';
import type { FetchedBytesDay, FetchClass } from './streams.wire.js';

/** Bytes the pool fetched per class per UTC day in LMDB (`stream-fetched-bytes`, key: the day). */
export class LmdbFetchedBytesStore implements FetchedBytesStore {
  private readonly db: Database<Record<FetchClass, number>, string>;

  constructor(store: Store) {
    this.db = store.openDb<Record<FetchClass, number>, string>('stream-fetched-bytes');
  }

  *all(): Iterable<FetchedBytesDay> {
    for (const { key, value } of this.db.getRange()) yield { day: key, bytes: value };
  }

  put(day: FetchedBytesDay): Promise<boolean> {
    return this.db.put(day.day, day.bytes);
  }

  async dropBefore(day: string): Promise<void> {
    for (const { key } of this.db.getRange({ end: day })) await this.db.remove(key);
  }
}
