import { isDeepStrictEqual } from 'node:util';
import type { CopyToLmdb } from '../store/pg/index.js';
import { PgQuotaStateStore } from './quota-pg.store.js';
import { LmdbQuotaStateStore } from './quota.store.js';

/** The quota marks and baselines of a PostgreSQL install into an empty LMDB environment, read back and compared. */
export const copyQuotaToLmdb: CopyToLmdb = async (from, to, progress) => {
  const records = await new PgQuotaStateStore(from).all();
  progress(`copying ${records.length} quota marks`);
  const lmdb = new LmdbQuotaStateStore(to);
  for (const r of records) {
    if (r.baseline) await lmdb.setBaseline(r.provider, r.baseline);
    else await lmdb.claim(r.provider, r.mark);
  }
  const key = (r: { provider: string; mark: string }) => `${r.provider}\0${r.mark}`;
  const order = (all: typeof records) => [...all].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  if (!isDeepStrictEqual(order(await lmdb.all()), order(records)))
    throw new Error('the quota marks read back differ from PostgreSQL');
  return [{ scope: 'quota', records: records.length }];
};
