import { join } from 'node:path';
import { migrate, type DataFolder, type StorageDomain } from '../store/index.js';
import { openPgSidecars } from './sidecar-pg.store.js';
import type { SidecarFiles } from './sidecar.port.js';
import { SidecarStore } from './sidecar.store.js';
import { openPgTree } from './tree-pg.store.js';
import type { TreeStore } from './tree.port.js';
import { VFS_MIGRATIONS } from './tree.migrations.js';
import { LmdbTreeStore } from './tree.store.js';
import { openTreeNodes } from './tree-nodes.store.js';
import { VFS_PG_MIGRATIONS } from './vfs-pg.migrations.js';
import { copySidecarsToLmdb, copyTreeToLmdb } from './vfs-lmdb.copy.js';
import { copySidecarsToPg, copyTreeToPg } from './vfs.copy.js';

/** The sidecar files of an LMDB install, each named by its opaque id (a `.tmp` while written: sidecar.store.ts). */
export const SIDECAR_FOLDER: DataFolder = { name: 'sidecars', file: /^[0-9a-f-]+$/ };
/** Where the sidecar files live beside an LMDB install. */
export const sidecarDir = (dataDir: string) => join(dataDir, SIDECAR_FOLDER.name);

/**
 * The virtual tree, its layouts and the sidecar files. On PostgreSQL, reads are served by a replica in the node's
 * own LMDB environment, rebuilt from the tables on a first start (tree-pg.store.ts); on LMDB the sidecars are files
 * under `<data dir>/sidecars`.
 */
export const treeStorage: StorageDomain<{ tree: TreeStore; sidecars: SidecarFiles }> = {
  scope: 'tree',
  folder: SIDECAR_FOLDER,
  lmdb({ local, dataDir }) {
    migrate(local, 'vfs', VFS_MIGRATIONS);
    const tree = new LmdbTreeStore({
      nodes: openTreeNodes(local),
      layouts: local.openDb('vfs-layouts'),
      meta: local.openDb('vfs-meta'),
    });
    return { tree, sidecars: new SidecarStore(sidecarDir(dataDir)) };
  },
  pg: {
    migrations: VFS_PG_MIGRATIONS,
    async open(at) {
      const tree = await openPgTree(at.db, at.local, at.logger.child('tree'));
      at.onClose(() => tree.close());
      return { tree, sidecars: openPgSidecars(at.db, at.logger.child('sidecars'), (sql) => tree.beforeCommit(sql)) };
    },
  },
  copy: async ({ store, db, dataDir, progress }) => [
    ...(await copyTreeToPg(store, db, progress)),
    ...(await copySidecarsToPg(store, sidecarDir(dataDir), db, progress)),
  ],
  copyToLmdb: async ({ store, db, dataDir, progress }) => [
    ...(await copyTreeToLmdb(db, store, progress)),
    ...(await copySidecarsToLmdb(db, sidecarDir(dataDir), progress)),
  ],
};
