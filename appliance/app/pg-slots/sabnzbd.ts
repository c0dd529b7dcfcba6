import type { DownloadTotalsStore, NzoIdStore } from '../../sabnzbd/index.js';
import { SABNZBD_PG_MIGRATIONS } from '../../sabnzbd/sabnzbd-pg.migrations.js';
import { openPgSabnzbdStores } from '../../sabnzbd/sabnzbd-pg.store.js';
import type { PgSlot } from './slot.js';

/**
 * The nzo-id salt (one for every node) and the download totals (each node's adds are increments; every node's copy
 * in memory follows the others' on `spool_sabnzbd`) on PostgreSQL.
 */
export const sabnzbdPg: PgSlot<{ nzoIds: NzoIdStore; downloadTotals: DownloadTotalsStore }> = {
  scope: 'sabnzbd',
  migrations: SABNZBD_PG_MIGRATIONS,
  async open(ctx) {
    const stores = await openPgSabnzbdStores(ctx.db, ctx.logger.child('sabnzbd'));
    ctx.onClose(() => stores.close());
    return stores;
  },
};
