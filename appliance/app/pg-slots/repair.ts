import type { Par2FileStore, PatchStore } from '../../repair/index.js';
import { REPAIR_PG_MIGRATIONS } from '../../repair/repair-pg.migrations.js';
import { openPgRepairStores } from '../../repair/repair-pg.store.js';
import type { PgSlot } from './slot.js';

/**
 * SLOT repair (docs/health.md "PAR2 repair"): the patch store (blobs in chunk rows, the index in every node's
 * memory kept current by `spool_repair` notifications, recent reads cached in memory) and the kept PAR2 files.
 */
export const repairPg: PgSlot<{ patches: PatchStore; par2Files: Par2FileStore }> = {
  scope: 'repair',
  migrations: REPAIR_PG_MIGRATIONS,
  async open(ctx) {
    const stores = await openPgRepairStores(ctx.db, ctx.logger.child('repair'));
    ctx.onClose(() => stores.patches.close());
    return stores;
  },
};
