import type { SidecarFiles } from '../../vfs/sidecar.port.js';
import type { TreeStore } from '../../vfs/tree.port.js';
import { notBuiltYet, type PgSlot } from './slot.js';

/**
 * SLOT tree (the virtual tree, its layouts and the sidecars; reads served by a replica in `ctx.local`). To fill:
 * scope 'tree', migrations TREE_PG_MIGRATIONS (vfs/tree-pg.migrations.ts), open: `openPgTree(ctx.db, ctx.local,
 * ctx.logger)` and the sidecar store.
 */
export const treePg: PgSlot<{ tree: TreeStore; sidecars: SidecarFiles }> = notBuiltYet('tree', 'the virtual tree');
