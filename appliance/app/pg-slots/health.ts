import { HEALTH_PG_MIGRATIONS } from '../../health/health-pg.migrations.js';
import { openPgHealthStore } from '../../health/health-pg.store.js';
import type { HealthStore } from '../../health/index.js';
import type { PgSlot } from './slot.js';

/**
 * Health records and the repair ledger on PostgreSQL (health/health-pg.store.ts): `verdicts` in memory on every
 * node, kept current by `spool_health` notifications; each record this node writes is announced on `ctx.events`
 * (health.record.changed), as the LMDB store does.
 */
export const healthPg: PgSlot<HealthStore> = {
  scope: 'health',
  migrations: HEALTH_PG_MIGRATIONS,
  async open(ctx) {
    const store = await openPgHealthStore(ctx.db, ctx.events, ctx.logger.child('health'));
    ctx.onClose(() => store.close());
    return store;
  },
};
