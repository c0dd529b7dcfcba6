import type { PgDb } from '../store/pg/index.js';
import { MAX_SAMPLES_PER_BUCKET, type LatencyBucket, type LatencyStore } from './latency.port.js';

/**
 * The round-trip history in PostgreSQL (`diagnostics_latency`): an add appends to the bucket's array in one
 * statement, so the samples of every node land in the same buckets and none overwrites another's.
 */
export class PgLatencyStore implements LatencyStore {
  constructor(private readonly db: PgDb) {}

  async add(provider: string, hour: number, ms: number): Promise<void> {
    await this.db.query(
      `INSERT INTO diagnostics_latency AS l (provider, hour, samples) VALUES ($1, $2, ARRAY[$3::double precision])
       ON CONFLICT (provider, hour) DO UPDATE SET samples = l.samples || EXCLUDED.samples
       WHERE cardinality(l.samples) < $4`,
      [provider, hour, ms, MAX_SAMPLES_PER_BUCKET],
    );
  }

  async since(hour: number): Promise<LatencyBucket[]> {
    const r = await this.db.query<{ provider: string; hour: string; samples: number[] }>(
      'SELECT provider, hour, samples FROM diagnostics_latency WHERE hour >= $1 ORDER BY provider COLLATE "C", hour',
      [hour],
    );
    return r.rows.map((row) => ({ provider: row.provider, hour: Number(row.hour), samples: row.samples.map(Number) }));
  }

  async dropBefore(hour: number): Promise<number> {
    const r = await this.db.query('DELETE FROM diagnostics_latency WHERE hour < $1', [hour]);
    return r.rowCount ?? 0;
  }

  async put(bucket: LatencyBucket): Promise<void> {
    await this.db.query(
      `INSERT INTO diagnostics_latency (provider, hour, samples) VALUES ($1, $2, $3::double precision[])
       ON CONFLICT (provider, hour) DO UPDATE SET samples = EXCLUDED.samples`,
      [bucket.provider, bucket.hour, bucket.samples],
    );
  }
}
