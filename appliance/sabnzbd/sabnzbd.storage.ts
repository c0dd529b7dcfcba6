import type { StorageDomain } from '../store/index.js';
import { LmdbDownloadTotalsStore } from './download-totals.store.js';
import { LmdbNzoIdStore } from './nzo-ids.store.js';
import { SABNZBD_PG_MIGRATIONS } from './sabnzbd-pg.migrations.js';
import { openPgSabnzbdStores } from './sabnzbd-pg.store.js';
import { copySabnzbdToLmdb } from './sabnzbd-lmdb.copy.js';
import { copySabnzbdToPg } from './sabnzbd.copy.js';
import type { DownloadTotalsStore, NzoIdStore } from './sabnzbd.port.js';

/**
 * The nzo-id salt (one for every node) and the download totals (on PostgreSQL each node's adds are increments and
 * every node's copy in memory follows the others' on `spool_sabnzbd`).
 */
export const sabnzbdStorage: StorageDomain<{ nzoIds: NzoIdStore; downloadTotals: DownloadTotalsStore }> = {
  scope: 'sabnzbd',
  lmdb: ({ local }) => ({ nzoIds: new LmdbNzoIdStore(local), downloadTotals: new LmdbDownloadTotalsStore(local) }),
  pg: {
    migrations: SABNZBD_PG_MIGRATIONS,
    async open(at) {
      const { nzoIds, downloadTotals, close } = await openPgSabnzbdStores(at.db, at.logger.child('sabnzbd'));
      at.onClose(close);
      return { nzoIds, downloadTotals };
    },
  },
  copy: ({ store, db, progress }) => copySabnzbdToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copySabnzbdToLmdb(db, store, progress),
};
