import type { EventSink, SpoolEvents } from '../events/index.js';
import type { StorageDomain } from '../store/index.js';
import { HEALTH_PG_MIGRATIONS } from './health-pg.migrations.js';
import { openPgHealthStore } from './health-pg.store.js';
import { copyHealthToLmdb } from './health-lmdb.copy.js';
import { copyHealthToPg } from './health.copy.js';
import type { HealthStore } from './health.port.js';
import { openHealthStore } from './health.store.js';

/**
 * Health records: `verdicts` in memory on every node (on PostgreSQL kept current by
 * `spool_health` notifications); each record this node writes is announced on `events` (health.record.changed).
 */
export const healthStorage: StorageDomain<{ health: HealthStore }, { events: EventSink<SpoolEvents> }> = {
  scope: 'health',
  lmdb: ({ local, events }) => ({ health: openHealthStore(local, events) }),
  pg: {
    migrations: HEALTH_PG_MIGRATIONS,
    async open(at) {
      const health = await openPgHealthStore(at.db, at.events, at.logger.child('health'));
      at.onClose(() => health.close());
      return { health };
    },
  },
  copy: ({ store, db, progress }) => copyHealthToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyHealthToLmdb(db, store, progress),
};
