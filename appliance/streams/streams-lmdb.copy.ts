import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '../logging/logger.js';
import type { CopyToLmdb } from '../store/pg/index.js';
import { PgFetchedBytesStore } from './fetched-bytes-pg.store.js';
import { LmdbFetchedBytesStore } from './fetched-bytes.store.js';
import { FETCH_CLASSES, type FetchedBytesDay } from './streams.wire.js';

/**
 * The bytes fetched per class per day of a PostgreSQL install into an empty LMDB environment (`spool migrate` into
 * LMDB, a PostgreSQL backup's neutral copy), read back through a fresh LMDB store and compared.
 */
export const copyStreamsToLmdb: CopyToLmdb = async (from, to, progress) => {
  const reader = await PgFetchedBytesStore.open(from, createLogger('migrate', 'error', progress));
  reader.close();
  const days = complete(reader.all());
  progress(`copying ${days.length} days of bytes fetched`);
  const lmdb = new LmdbFetchedBytesStore(to);
  await Promise.all(days.map((d) => lmdb.add(d)));
  if (!isDeepStrictEqual(complete(new LmdbFetchedBytesStore(to).all()), days))
    throw new Error('the bytes fetched read back differ from PostgreSQL');
  return [{ scope: 'streams', records: days.length }];
};

function complete(all: Iterable<FetchedBytesDay>): FetchedBytesDay[] {
  return [...all]
    .map((d) => ({ day: d.day, bytes: Object.fromEntries(FETCH_CLASSES.map((c) => [c, d.bytes[c] ?? 0])) }))
    .sort((a, b) => (a.day < b.day ? -1 : 1)) as FetchedBytesDay[];
}
