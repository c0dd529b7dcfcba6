import { join } from 'node:path';
import type { ConfigService } from '../config/index.js';
import { MountService } from '../fuse/mount.service.js';
import type { LogLevel, Logger } from '../logging/logger.js';
import { withMinLevel } from '../logging/min-level.js';
import { RcloneService } from '../rclone/rclone.service.js';
import { migrate, type Store } from '../store/index.js';
import type { ArticleSource } from '../vfs/article-fetcher.js';
import { VfsReader } from '../vfs/reader.js';
import { readerSettings } from '../vfs/reader-settings.js';
import { VFS_MIGRATIONS } from '../vfs/tree.migrations.js';
import { LmdbTreeStore } from '../vfs/tree.store.js';
import { VfsService } from '../vfs/vfs.service.js';
import { LockManager } from '../webdav/lock.manager.js';

export interface StreamingDeps {
  store: Store;
  config: ConfigService;
  logger: Logger;
  /** Decoded article bytes (poolArticleSource(pool) in the app). */
  source: ArticleSource;
  /** Kernel read-ahead for the FUSE mount in KiB (SPOOL_FUSE_READ_AHEAD_KB); 0 keeps the kernel's default. */
  fuseReadAheadKb?: number;
}

/** The virtual tree and everything that serves it: the reader, WebDAV locks, the FUSE mount, rclone. */
export interface Streaming {
  vfs: VfsService;
  reader: VfsReader;
  locks: LockManager;
  mount: MountService;
  rclone: RcloneService;
  /** Settles when the mount at start (rclone.mount_enabled with a mount_path) is up or has failed (logged). */
  mountAtStart: Promise<void>;
  close(): Promise<void>;
}

/** Builds the virtual tree, the reader, the WebDAV lock table, the mount and the rclone client. */
export function buildStreaming(deps: StreamingDeps): Streaming {
  migrate(deps.store, 'vfs', VFS_MIGRATIONS);
  const vfs = new VfsService({
    tree: new LmdbTreeStore({ nodes: deps.store.openDb('vfs-nodes'), layouts: deps.store.openDb('vfs-layouts') }),
    sidecarDir: join(deps.config.dataDir, 'sidecars'),
    completeDir: deps.config.get().sabnzbd.complete_dir || '/complete',
  });
  const reader = new VfsReader(vfs, deps.source, () => readerSettings(deps.config));
  const log = deps.logger.child('vfs');
  const locks = new LockManager();
  // rclone.log_level is the mount's own level (both backends; the rclone rcd gets it too, as main.LogLevel).
  const fuseLog = withMinLevel(deps.logger.child('fuse'), () => mountLogLevel(deps.config.get().rclone.log_level));
  const mount = new MountService(vfs, reader, deps.config, fuseLog, deps.fuseReadAheadKb);
  const rclone = new RcloneService(deps.config, deps.logger.child('rclone'), () => mount.rclone.fs);
  vfs.on('changed', (dir) => rclone.refresh(dir));
  invalidateMountOnChange(vfs, mount, fuseLog);
  const mountAtStart = startMountIfEnabled(mount, deps.config, fuseLog);
  return {
    vfs,
    reader,
    locks,
    mount,
    rclone,
    mountAtStart,
    async close() {
      await mountAtStart; // never unmount under a mount still being set up
      await mount.stop().catch((err: Error) => log.warn('unmount failed', { error: err.message }));
      reader.removeAllListeners();
    },
  };
}

/**
 * What the kernel cached about a path that left the tree or changed (a file removed, moved, or replaced by a
 * re-import or a MOVE over it) is dropped at once, so it does not stay visible for dir_cache_time (docs/fuse.md).
 */
function invalidateMountOnChange(vfs: VfsService, mount: MountService, log: Logger): void {
  const invalidate = (paths: string[]) =>
    void mount
      .invalidate(paths)
      .catch((err: Error) => log.warn('kernel cache invalidation failed', { error: err.message }));
  vfs.on('removed', (paths) => invalidate(paths));
  vfs.on('moved', (from, to) => invalidate([from, to]));
  vfs.on('changed', (dir) => invalidate([dir]));
}

/** rclone.log_level (DEBUG, INFO, WARN, ERROR) as a logger level. */
function mountLogLevel(level: string): LogLevel {
  return level.toLowerCase() as LogLevel;
}

/**
 * rclone.mount_enabled with a mount_path: mount on boot (MountService.start detaches a stale mount left by a
 * crash first). A failure is logged and shown by GET /api/rclone/mount/status; it never stops the app starting.
 */
async function startMountIfEnabled(mount: MountService, config: ConfigService, log: Logger): Promise<void> {
  const c = config.get();
  if (!c.rclone.mount_enabled || !c.mount_path) return;
  try {
    await mount.start();
  } catch (err) {
    log.error('mount at start failed', { mount_point: c.mount_path, error: (err as Error).message });
  }
}
