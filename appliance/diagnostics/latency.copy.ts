import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { PgLatencyStore } from './latency-pg.store.js';
import { LmdbLatencyStore } from './latency.store.js';

/** Copies the round-trip history of an LMDB install into PostgreSQL (`spool migrate`), reads it back. */
export const copyLatencyToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const buckets = await new LmdbLatencyStore(from).since(0);
  progress(`copying ${buckets.length} hours of provider round trips`);
  const pg = new PgLatencyStore(to);
  for (const b of buckets) await pg.put(b);
  if (!isDeepStrictEqual(await pg.since(0), buckets))
    throw new Error('the round-trip history read back differs from LMDB');
  return [{ scope: 'latency', records: buckets.length }];
};
