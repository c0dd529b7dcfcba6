import type { DownloadTotalsStore, NzoIdStore } from '../../sabnzbd/index.js';
import { notBuiltYet, type PgSlot } from './slot.js';

/**
 * SLOT sabnzbd (the nzo-id salt, download totals). To fill: scope 'sabnzbd', migrations SABNZBD_PG_MIGRATIONS
 * (sabnzbd/sabnzbd-pg.migrations.ts), open: both stores.
 */
export const sabnzbdPg: PgSlot<{ nzoIds: NzoIdStore; downloadTotals: DownloadTotalsStore }> = notBuiltYet(
  'sabnzbd',
  'SABnzbd ids and download totals',
);
