import { join } from 'node:path';
import type { DataFolder, StorageDomain } from '../store/index.js';
import { LmdbPar2FileStore } from './par2-files.store.js';
import { DiskPatchStore } from './patch.store.js';
import { REPAIR_PG_MIGRATIONS } from './repair-pg.migrations.js';
import { openPgRepairStores } from './repair-pg.store.js';
import { copyRepairToLmdb } from './repair-lmdb.copy.js';
import { copyRepairToPg } from './repair.copy.js';
import type { Par2FileStore, PatchStore } from './repair.port.js';

/** The patches' blobs of an LMDB install (the index is in LMDB): `<id>.bin`, a `.tmp` while written (patch.store.ts). */
export const PATCH_FOLDER: DataFolder = { name: 'patches', file: /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.bin$/ };
/** Where an LMDB install keeps the patches' blobs. */
export const patchDir = (dataDir: string) => join(dataDir, PATCH_FOLDER.name);

/**
 * PAR2 repair's patches (rebuilt bytes the reader serves) and the kept PAR2 files (docs/health.md "PAR2 repair").
 * On PostgreSQL the blobs are chunk rows and the index is in every node's memory, kept current by `spool_repair`.
 */
export const repairStorage: StorageDomain<{ patches: PatchStore; par2Files: Par2FileStore }> = {
  scope: 'repair',
  folder: PATCH_FOLDER,
  lmdb: ({ local, dataDir }) => ({
    patches: new DiskPatchStore(local, patchDir(dataDir)),
    par2Files: new LmdbPar2FileStore(local),
  }),
  pg: {
    migrations: REPAIR_PG_MIGRATIONS,
    async open(at) {
      const stores = await openPgRepairStores(at.db, at.logger.child('repair'));
      at.onClose(() => stores.patches.close());
      return stores;
    },
  },
  copy: ({ store, db, dataDir, progress }) => copyRepairToPg(patchDir(dataDir))(store, db, progress),
  copyToLmdb: ({ store, db, dataDir, progress }) => copyRepairToLmdb(patchDir(dataDir))(db, store, progress),
};
