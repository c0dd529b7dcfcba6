import { isDeepStrictEqual } from 'node:util';
import type { CopyToLmdb } from '../store/pg/index.js';
import { PgLatencyStore } from './latency-pg.store.js';
import { LmdbLatencyStore } from './latency.store.js';

/** The round-trip history of a PostgreSQL install into an empty LMDB environment (`spool migrate` into LMDB), read back. */
export const copyLatencyToLmdb: CopyToLmdb = async (from, to, progress) => {
  const buckets = await new PgLatencyStore(from).since(0);
  progress(`copying ${buckets.length} hours of provider round trips`);
  const lmdb = new LmdbLatencyStore(to);
  for (const b of buckets) await lmdb.put(b);
  if (!isDeepStrictEqual(await lmdb.since(0), buckets))
    throw new Error('the round-trip history read back differs from PostgreSQL');
  return [{ scope: 'latency', records: buckets.length }];
};
