import { openPgSidecars } from '../../vfs/sidecar-pg.store.js';
import type { SidecarFiles } from '../../vfs/sidecar.port.js';
import { openPgTree } from '../../vfs/tree-pg.store.js';
import type { TreeStore } from '../../vfs/tree.port.js';
import { VFS_PG_MIGRATIONS } from '../../vfs/vfs-pg.migrations.js';
import type { PgSlot } from './slot.js';

/**
 * The virtual tree, its layouts and the sidecars on PostgreSQL (vfs/tree-pg.store.ts): reads served by a replica
 * in the node's own LMDB env (`ctx.local`), rebuilt from the tables on a first start.
 */
export const treePg: PgSlot<{ tree: TreeStore; sidecars: SidecarFiles }> = {
  scope: 'tree',
  migrations: VFS_PG_MIGRATIONS,
  async open(ctx) {
    const tree = await openPgTree(ctx.db, ctx.local, ctx.logger.child('tree'));
    ctx.onClose(() => tree.close());
    return { tree, sidecars: openPgSidecars(ctx.db, ctx.logger.child('sidecars')) };
  },
};
