import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { PgFetchedBytesStore } from './fetched-bytes-pg.store.js';
import { LmdbFetchedBytesStore } from './fetched-bytes.store.js';
import { FETCH_CLASSES } from './streams.wire.js';

/**
 * Copies the bytes the pool fetched per class per day of an LMDB install into PostgreSQL (`spool migrate`), then
 * reads them back through the PostgreSQL store and compares.
 */
export const copyStreamsToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const days = [...new LmdbFetchedBytesStore(from).all()];
  progress(`copying ${days.length} days of bytes fetched`);
  await to.tx(async (tx) => {
    for (const d of days)
      await tx.query(
        `INSERT INTO stream_fetched_bytes (day, ${FETCH_CLASSES.join(', ')})
         VALUES ($1, ${FETCH_CLASSES.map((_, i) => `$${i + 2}`).join(', ')})`,
        [d.day, ...FETCH_CLASSES.map((c) => d.bytes[c] ?? 0)],
      );
  });
  const reader = await PgFetchedBytesStore.open(to, createLogger('migrate', 'error', progress));
  reader.close();
  const complete = days.map((d) => ({
    day: d.day,
    bytes: Object.fromEntries(FETCH_CLASSES.map((c) => [c, d.bytes[c] ?? 0])),
  }));
  if (!isDeepStrictEqual([...reader.all()], complete)) throw new Error('the bytes fetched read back differ from LMDB');
  return [{ scope: 'streams', records: days.length }];
};
