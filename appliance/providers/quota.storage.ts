import type { StorageDomain } from '../store/index.js';
import { QUOTA_PG_MIGRATIONS } from './quota-pg.migrations.js';
import { PgQuotaStateStore } from './quota-pg.store.js';
import type { QuotaStateStore } from './quota.port.js';
import { copyQuotaToLmdb } from './quota-lmdb.copy.js';
import { copyQuotaToPg } from './quota.copy.js';
import { LmdbQuotaStateStore } from './quota.store.js';

/** The quota meter's notices sent and lifetime starting points (docs/nntp.md "Quotas and expiry"). */
export const quotaStorage: StorageDomain<{ quotaState: QuotaStateStore }> = {
  scope: 'quota',
  lmdb: ({ local }) => ({ quotaState: new LmdbQuotaStateStore(local) }),
  pg: {
    migrations: QUOTA_PG_MIGRATIONS,
    open: (at) => ({ quotaState: new PgQuotaStateStore(at.db) }),
  },
  copy: ({ store, db, progress }) => copyQuotaToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyQuotaToLmdb(db, store, progress),
};
