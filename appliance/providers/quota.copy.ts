import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { PgQuotaStateStore } from './quota-pg.store.js';
import { LmdbQuotaStateStore } from './quota.store.js';

/** Copies the quota marks and baselines of an LMDB install into PostgreSQL (`spool migrate`), reads them back. */
export const copyQuotaToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const records = await new LmdbQuotaStateStore(from).all();
  progress(`copying ${records.length} quota marks`);
  const pg = new PgQuotaStateStore(to);
  for (const r of records) {
    if (r.baseline) await pg.setBaseline(r.provider, r.baseline);
    else await pg.claim(r.provider, r.mark);
  }
  if (!isDeepStrictEqual(await pg.all(), records)) throw new Error('the quota marks read back differ from LMDB');
  return [{ scope: 'quota', records: records.length }];
};
