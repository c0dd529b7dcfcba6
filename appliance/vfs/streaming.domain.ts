import { join } from 'node:path';
import type { ConfigService } from '../config/index.js';
import type { Router } from '../http/router.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import { LockManager } from '../webdav/lock.manager.js';
import { registerWebdav } from '../webdav/webdav.routes.js';
import { registerFilesRoutes } from '../api/files.routes.js';
import { registerRcloneRoutes } from '../api/rclone.routes.js';
import { MountService } from '../fuse/mount.service.js';
import { RcloneService } from '../rclone/rclone.service.js';
import type { ArticleSource } from './article-fetcher.js';
import { VfsReader, type ReaderSettings } from './reader.js';
import { VfsService } from './vfs.service.js';
import { migrate } from '../store/index.js';
import { VFS_MIGRATIONS } from './tree.migrations.js';

const MIB = 1024 * 1024;
/** The route's body ceiling: the largest webdav.max_sidecar_size_mb the schema allows; each PUT narrows it. */
const SIDECAR_BODY_CEILING = 256 * MIB + 1;

export interface StreamingDeps {
  store: Store;
  config: ConfigService;
  logger: Logger;
  /** Decoded article bytes (poolArticleSource(pool) in the app). */
  source: ArticleSource;
}

export interface StreamingDomain {
  vfs: VfsService;
  reader: VfsReader;
  locks: LockManager;
  mount: MountService;
  rclone: RcloneService;
  /** Settles when the mount at start (rclone.mount_enabled with a mount_path) is up or has failed (logged). */
  mountAtStart: Promise<void>;
  registerRoutes(router: Router): void;
  close(): Promise<void>;
}

/** Reader settings from spec §3 streaming config, read live so a PATCH applies to the next read. */
export function readerSettings(config: ConfigService): ReaderSettings {
  const s = config.get().streaming;
  return {
    cacheBytes: s.max_cache_size_mb * 1024 * 1024,
    workersPerStream: s.max_download_workers,
    zeroFill: {
      enabled: s.zero_fill_enabled,
      // A "tiny hole" is one article of normal size at most; the count and share come from config.
      maxHoleBytes: 1024 * 1024,
      maxHolesPerFile: s.zero_fill_max_articles,
      maxFileShare: s.zero_fill_max_percent / 100,
    },
  };
}

/** Builds the virtual tree, the reader and the WebDAV lock table; app.ts registers the routes. */
export function createStreaming(deps: StreamingDeps): StreamingDomain {
  migrate(deps.store, 'vfs', VFS_MIGRATIONS);
  const vfs = new VfsService({
    db: { nodes: deps.store.openDb('vfs-nodes'), layouts: deps.store.openDb('vfs-layouts') },
    sidecarDir: join(deps.config.dataDir, 'sidecars'),
    completeDir: completeDirOf(deps.config),
  });
  const reader = new VfsReader(vfs, deps.source, () => readerSettings(deps.config));
  const log = deps.logger.child('vfs');
  // The reader's 'article-failure' events are wired in the composition root (app.ts): health takes them as evidence.
  const locks = new LockManager();
  const fuseLog = deps.logger.child('fuse');
  const mount = new MountService(vfs, reader, deps.config, fuseLog);
  const rclone = new RcloneService(deps.config, deps.logger.child('rclone'));
  vfs.on('changed', (dir) => rclone.refresh(dir));
  const mountAtStart = startMountIfEnabled(mount, deps.config, fuseLog);
  return {
    vfs,
    reader,
    locks,
    mount,
    rclone,
    mountAtStart,
    registerRoutes(router) {
      registerFilesRoutes(router, this);
      registerRcloneRoutes(router, mount, rclone);
      const sidecarMaxBytes = () => deps.config.get().webdav.max_sidecar_size_mb * MIB;
      registerWebdav(
        router,
        { vfs, reader, locks, logger: deps.logger.child('webdav'), sidecarMaxBytes },
        SIDECAR_BODY_CEILING,
      );
    },
    async close() {
      await mountAtStart; // never unmount under a mount still being set up
      await mount.stop().catch((err: Error) => log.warn('unmount failed', { error: err.message }));
      reader.removeAllListeners();
    },
  };
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

function completeDirOf(config: ConfigService): string {
  return config.get().sabnzbd.complete_dir || '/complete';
}
