import type { StorageDomain } from '../store/index.js';
import { PgAvailabilityStore } from './availability-pg.store.js';
import type { AvailabilityStore } from './availability.port.js';
import { LmdbAvailabilityStore } from './availability.store.js';
import { PROVIDERS_PG_MIGRATIONS } from './providers-pg.migrations.js';
import { copyProvidersToPg } from './providers.copy.js';

/**
 * The availability counts per day, provider and post-age band (on PostgreSQL each node's flush is an increment;
 * every node's copy in memory follows the others' on `spool_providers`).
 */
export const providersStorage: StorageDomain<{ availability: AvailabilityStore }> = {
  scope: 'providers',
  lmdb: ({ local }) => ({ availability: new LmdbAvailabilityStore(local) }),
  pg: {
    migrations: PROVIDERS_PG_MIGRATIONS,
    async open(at) {
      const availability = await PgAvailabilityStore.open(at.db, at.logger.child('providers'));
      at.onClose(async () => {
        await availability.flushed().catch(() => undefined);
        availability.close();
      });
      return { availability };
    },
  },
  copy: ({ store, db, progress }) => copyProvidersToPg(store, db, progress),
};
