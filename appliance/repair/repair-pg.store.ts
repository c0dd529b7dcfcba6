import type { Logger } from '../logging/logger.js';
import type { PgDb } from '../store/pg/index.js';
import { PgPar2FileStore } from './par2-files-pg.store.js';
import { PgPatchStore, type PgPatchStoreOptions } from './patch-pg.store.js';

/**
 * The repair domain's stores on PostgreSQL (docs/health.md "PAR2 repair"), the same pair app/repair.ts opens on
 * LMDB: loads the patch index into memory and sweeps pending blobs a crashed node left. The schema
 * (`REPAIR_PG_MIGRATIONS`, scope 'repair') must be migrated first.
 */
export async function openPgRepairStores(
  db: PgDb,
  logger: Logger,
  opts: PgPatchStoreOptions = {},
): Promise<{ patches: PgPatchStore; par2Files: PgPar2FileStore }> {
  return { patches: await PgPatchStore.open(db, logger, opts), par2Files: new PgPar2FileStore(db) };
}
