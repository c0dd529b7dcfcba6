import type { MountService } from '../fuse/mount.service.js';
import type { Logger } from '../logging/logger.js';
import type { RcloneService } from '../rclone/rclone.service.js';
import { parentOf } from '../vfs/path.js';
import type { TreeStore } from '../vfs/tree.port.js';

/** Folders refreshed one by one at most; a change spread wider refreshes the root. */
const MAX_REFRESHED_DIRS = 50;

/**
 * Paths another node changed in a shared tree (tree-pg.store.ts, once this node's replica has them): the kernel's
 * cached entries of them and of their folders are dropped and rclone refreshes the folders, as this node does for
 * its own writes (app/streaming.ts), so a file moved or deleted elsewhere is not served from stale kernel cache.
 * Health and repair records are not touched here: the node that wrote already moved them in the shared store.
 */
export function followRemoteTreeChanges(
  tree: TreeStore,
  mount: MountService,
  rclone: RcloneService,
  log: Logger,
): () => void {
  if (!tree.onRemoteChange) return () => undefined;
  return tree.onRemoteChange((paths) => {
    const dirs = [...new Set(paths.map(parentOf))];
    void mount
      .invalidate([...new Set([...paths, ...dirs])])
      .catch((err: Error) => log.warn('kernel cache invalidation failed', { error: err.message }));
    for (const dir of dirs.length > MAX_REFRESHED_DIRS ? ['/'] : dirs) rclone.refresh(dir);
  });
}
