import type { Database, Store } from '../store/index.js';
import { MAX_SAMPLES_PER_BUCKET, type LatencyBucket, type LatencyStore } from './latency.port.js';

type Key = [string, number];

/** The round-trip history in LMDB (`diagnostics-latency`, key [provider id, hour], value the hour's samples). */
export class LmdbLatencyStore implements LatencyStore {
  private readonly db: Database<number[], Key>;

  constructor(store: Store) {
    this.db = store.openDb<number[], Key>('diagnostics-latency');
  }

  async add(provider: string, hour: number, ms: number): Promise<void> {
    const key: Key = [provider, hour];
    await this.db.transaction(() => {
      const samples = this.db.get(key) ?? [];
      if (samples.length < MAX_SAMPLES_PER_BUCKET) void this.db.put(key, [...samples, ms]);
    });
  }

  since(hour: number): Promise<LatencyBucket[]> {
    const out: LatencyBucket[] = [];
    for (const { key, value } of this.db.getRange()) {
      if (key[1] >= hour) out.push({ provider: key[0], hour: key[1], samples: value });
    }
    return Promise.resolve(out);
  }

  async dropBefore(hour: number): Promise<number> {
    return this.db.transaction(() => {
      let dropped = 0;
      for (const key of this.db.getKeys()) {
        if (key[1] >= hour) continue;
        void this.db.remove(key);
        dropped++;
      }
      return dropped;
    });
  }

  async put(bucket: LatencyBucket): Promise<void> {
    await this.db.put([bucket.provider, bucket.hour], bucket.samples);
  }
}
