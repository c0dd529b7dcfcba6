import type { HealthStore } from '../../health/index.js';
import { notBuiltYet, type PgSlot } from './slot.js';

/**
 * SLOT health (records, the repair ledger; `verdicts` in memory, kept current by `spool_health` notifications; each
 * record written announced on `ctx.events` as the LMDB store does). To fill: scope 'health', migrations
 * HEALTH_PG_MIGRATIONS (health/health-pg.migrations.ts), open: the PgHealthStore.
 */
export const healthPg: PgSlot<HealthStore> = notBuiltYet('health', 'file health');
