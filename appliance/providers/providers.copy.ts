import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { PgAvailabilityStore } from './availability-pg.store.js';
import { LmdbAvailabilityStore } from './availability.store.js';

const order = (r: { day: string; provider: string; band: string }) => `${r.day}\0${r.provider}\0${r.band}`;

/** Copies the availability counts of an LMDB install into PostgreSQL (`spool migrate`), reads them back, compares. */
export const copyProvidersToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const records = [...new LmdbAvailabilityStore(from).all()].sort((a, b) => (order(a) < order(b) ? -1 : 1));
  progress(`copying ${records.length} availability counts`);
  await to.tx(async (tx) => {
    for (const r of records)
      await tx.query(
        'INSERT INTO provider_availability (day, provider, band, had, missing) VALUES ($1, $2, $3, $4, $5)',
        [r.day, r.provider, r.band, r.had, r.missing],
      );
  });
  const reader = await PgAvailabilityStore.open(to, createLogger('migrate', 'error', progress));
  reader.close();
  if (!isDeepStrictEqual([...reader.all()], records))
    throw new Error('the availability counts read back differ from LMDB');
  return [{ scope: 'providers', records: records.length }];
};
