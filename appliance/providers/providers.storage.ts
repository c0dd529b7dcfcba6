import type { StorageDomain } from '../store/index.js';
import { PgAvailabilityStore } from './availability-pg.store.js';
import type { AvailabilityStore } from './availability.port.js';
import { LmdbAvailabilityStore } from './availability.store.js';
import { PgFitStore } from './fit-pg.store.js';
import type { FitStore } from './fit.port.js';
import { LmdbFitStore } from './fit.store.js';
import { PROVIDERS_PG_MIGRATIONS } from './providers-pg.migrations.js';
import { copyProvidersToLmdb } from './providers-lmdb.copy.js';
import { copyProvidersToPg } from './providers.copy.js';

/**
 * The availability counts per day, provider and post-age band, and the fit sampler's counts and seconds watched per
 * day (on PostgreSQL each node's flush is an increment; every node's copy in memory follows the others' on
 * `spool_providers` and `spool_provider_fit`).
 */
export const providersStorage: StorageDomain<{ availability: AvailabilityStore; fit: FitStore }> = {
  scope: 'providers',
  lmdb: ({ local }) => ({ availability: new LmdbAvailabilityStore(local), fit: new LmdbFitStore(local) }),
  pg: {
    migrations: PROVIDERS_PG_MIGRATIONS,
    async open(at) {
      const availability = await PgAvailabilityStore.open(at.db, at.logger.child('providers'));
      const fit = await PgFitStore.open(at.db, at.logger.child('providers'));
      at.onClose(async () => {
        await availability.flushed().catch(() => undefined);
        await fit.flushed().catch(() => undefined);
        availability.close();
        fit.close();
      });
      return { availability, fit };
    },
  },
  copy: ({ store, db, progress }) => copyProvidersToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyProvidersToLmdb(db, store, progress),
};
