import { join } from 'node:path';
import { copyAuthToPg } from '../auth/auth-pg-copy.store.js';
import { copyHealthToPg } from '../health/health-pg-copy.store.js';
import { copyQueueToPg } from '../importer/queue-pg-copy.store.js';
import { copyRepairToPg } from '../repair/repair-pg-copy.store.js';
import { copySabnzbdToPg } from '../sabnzbd/sabnzbd-pg-copy.store.js';
import type { CopyToPg } from '../store/pg/index.js';
import { copyStreamsToPg } from '../streams/streams-pg-copy.store.js';
import { copySidecarsToPg, copyTreeToPg } from '../vfs/vfs-pg-copy.store.js';
import type { CopyContext, PgDomain } from './migrate-to-pg.js';
import { PG_SLOTS } from './stores-pg.js';

const plain =
  (copy: CopyToPg) =>
  ({ store, db, progress }: CopyContext) =>
    copy(store, db, progress);

/** Each domain's copy from LMDB (`<domain>-pg-copy.store.ts`), by schema scope; a domain's entry lands with it. */
const COPIES: Record<string, PgDomain['copy']> = {
  queue: plain(copyQueueToPg),
  auth: plain(copyAuthToPg),
  sabnzbd: plain(copySabnzbdToPg),
  streams: plain(copyStreamsToPg),
  health: plain(copyHealthToPg),
  // the patch blobs are files beside the LMDB store, where openLmdbStores (app/stores.ts) keeps them
  repair: ({ store, db, dataDir, progress }) => copyRepairToPg(join(dataDir, 'patches'))(store, db, progress),
  // the sidecars are files beside the LMDB store too (openLmdbStores: `<data dir>/sidecars`)
  tree: async ({ store, db, dataDir, progress }) => [
    ...(await copyTreeToPg(store, db, progress)),
    ...(await copySidecarsToPg(store, join(dataDir, 'sidecars'), db, progress)),
  ],
};

/**
 * Every domain `spool migrate` moves into PostgreSQL: the schema of every slot the nodes open (app/stores-pg.ts),
 * so the database it leaves is the one a node expects, and each domain's copy.
 */
export const PG_DOMAINS: readonly PgDomain[] = PG_SLOTS.map((slot) => ({
  scope: slot.scope,
  migrations: slot.migrations,
  copy: COPIES[slot.scope],
}));

/** The domains that keep records in LMDB: a migration that moved fewer is not whole (docs/deployment.md). */
export const PG_REQUIRED_COPIES = ['auth', 'queue', 'tree', 'health', 'repair', 'sabnzbd', 'streams'] as const;
