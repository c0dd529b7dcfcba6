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

/** Sidecars (PUT) are subtitles, .nfo and artwork: 16 MiB is far above any of them and far below any media. */
export const SIDECAR_MAX_BYTES = 16 * 1024 * 1024;

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
  /** Message ids of a file that failed after every provider since start (GET /api/files/info 'available'). */
  unavailable(path: string): Set<string>;
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
  const vfs = new VfsService({
    db: { nodes: deps.store.openDb('vfs-nodes'), layouts: deps.store.openDb('vfs-layouts') },
    sidecarDir: join(deps.config.dataDir, 'sidecars'),
    completeDir: completeDirOf(deps.config),
  });
  const reader = new VfsReader(vfs, deps.source, () => readerSettings(deps.config));
  const log = deps.logger.child('vfs');
  const failed = new Map<string, Set<string>>();
  reader.on('article-failure', (f) => {
    log.warn('article unavailable', { ...f });
    if (!failed.has(f.path) && failed.size > 10_000) failed.clear();
    failed.set(f.path, (failed.get(f.path) ?? new Set()).add(f.messageId));
  });
  vfs.on('removed', (paths) => paths.forEach((p) => failed.delete(p)));
  const locks = new LockManager();
  const mount = new MountService(vfs, reader, deps.config, deps.logger.child('fuse'));
  const rclone = new RcloneService(deps.config, deps.logger.child('rclone'));
  vfs.on('changed', (dir) => rclone.refresh(dir));
  return {
    vfs,
    reader,
    locks,
    mount,
    rclone,
    unavailable: (path) => failed.get(path) ?? new Set(),
    registerRoutes(router) {
      registerFilesRoutes(router, this);
      registerRcloneRoutes(router, mount, rclone);
      registerWebdav(router, { vfs, reader, locks, logger: deps.logger.child('webdav'), sidecarMaxBytes: () => SIDECAR_MAX_BYTES }, SIDECAR_MAX_BYTES + 1);
    },
    async close() {
      await mount.stop().catch((err: Error) => log.warn('unmount failed', { error: err.message }));
      reader.removeAllListeners();
    },
  };
}

function completeDirOf(config: ConfigService): string {
  return config.get().sabnzbd.complete_dir || '/complete';
}
