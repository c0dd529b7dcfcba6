import { join } from 'node:path';
import type { ConfigService } from '../config/index.js';
import type { EventBus, EventSource, SpoolEvents } from '../events/index.js';
import { MountService } from '../fuse/mount.service.js';
import type { LogLevel, Logger } from '../logging/logger.js';
import { withMinLevel } from '../logging/min-level.js';
import { RcloneService } from '../rclone/rclone.service.js';
import type { ArticleSource } from '../vfs/article-fetcher.js';
import { VfsReader } from '../vfs/reader.js';
import { ReadHandles } from '../vfs/read-handle.js';
import { systemClock, type Clock } from '../clock/clock.js';
import { readerSettings } from '../vfs/reader-settings.js';
import type { SidecarFiles } from '../vfs/sidecar.port.js';
import type { TreeStore } from '../vfs/tree.port.js';
import type { HealthVerdicts, PatchedBytes } from '../vfs/types.js';
import { VfsService } from '../vfs/vfs.service.js';
import { LockManager } from '../webdav/lock.manager.js';
import { poolArticleSource, type BodyFetcher } from '../vfs/pool-source.js';
import { ProbeCache } from '../vfs/probe-cache.js';
import { probeCachedSource } from '../vfs/probe-cached-source.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';
import { wireStreamEvents } from './stream-events.js';
import { followRemoteTreeChanges } from './tree-remote-changes.js';

export interface StreamingDeps {
  /** The tree's store and the sidecars' (app/stores.ts: LMDB, or PostgreSQL with a local replica). */
  tree: TreeStore;
  sidecars: SidecarFiles;
  config: ConfigService;
  logger: Logger;
  /** The app's bus: the tree announces its changes and the reader its read outcomes on it. */
  events: EventBus<SpoolEvents>;
  /** Decoded article bytes (poolArticleSource(pool) in the app). */
  source: ArticleSource;
  /** Kernel read-ahead for the FUSE mount in KiB (SPOOL_FUSE_READ_AHEAD_KB); 0 keeps the kernel's default. */
  fuseReadAheadKb?: number;
  /** The health store's verdicts (the corrupted filter, articles known unavailable); the tree keeps no copy. */
  health?: HealthVerdicts;
  /** Time for the read handles' time to first byte, stalls and progress throttle. */
  clock?: Clock;
  /** Bytes PAR2 repairs rebuilt (appliance/repair): the reader serves them for articles gone from every provider. */
  patches?: PatchedBytes;
}

/** The virtual tree and everything that serves it: the reader, WebDAV locks, the FUSE mount, rclone. */
export interface Streaming {
  vfs: VfsService;
  reader: VfsReader;
  /** Every open read of WebDAV and FUSE (appliance/vfs/read-handle.ts); `observe` for a live view of streams. */
  handles: ReadHandles;
  locks: LockManager;
  mount: MountService;
  rclone: RcloneService;
  /** Settles when the mount at start (rclone.mount_enabled with a mount_path) is up or has failed (logged). */
  mountAtStart: Promise<void>;
  close(): Promise<void>;
}

/**
 * The virtual tree on the tree's and sidecars' ports, read through the pool, with the health verdicts and the PAR2
 * patches; every WebDAV and FUSE read handle announced on the bus (stream.opened / progress / closed).
 */
export function createStreaming(
  core: AppCore,
  pool: BodyFetcher,
  fuseReadAheadKb?: number,
): Built<Streaming & { probes: ProbeCache }> {
  const { stores, events } = core;
  const probes = new ProbeCache(
    join(core.config.dataDir, 'probe-cache'),
    () => core.config.get().streaming.probe_cache_size_mb * 1024 * 1024,
    core.logger.child('probe-cache'),
  );
  const streaming = buildStreaming({
    patches: stores.patches,
    tree: stores.tree,
    sidecars: stores.sidecars,
    health: stores.health.verdicts,
    config: core.config,
    logger: core.logger,
    events,
    source: probeCachedSource(probes, poolArticleSource(pool)),
    fuseReadAheadKb,
    clock: core.clock,
  });
  return built(
    { ...streaming, probes },
    () => streaming.close(),
    wireStreamEvents(streaming.handles, events),
    events.on('config.changed', () => probes.trim()), // a smaller probe_cache_size_mb applies at once
  );
}

/** Builds the virtual tree, the reader, the WebDAV lock table, the mount and the rclone client. */
function buildStreaming(deps: StreamingDeps): Streaming {
  const vfs = new VfsService({
    tree: deps.tree,
    sidecars: deps.sidecars,
    completeDir: deps.config.get().sabnzbd.complete_dir || '/complete',
    health: deps.health,
    events: deps.events,
  });
  const reader = new VfsReader(vfs, deps.source, () => readerSettings(deps.config), deps.events, deps.patches);
  const handles = new ReadHandles(reader, deps.clock ?? systemClock);
  const log = deps.logger.child('vfs');
  const locks = new LockManager();
  // rclone.log_level is the mount's own level (both backends; the rclone rcd gets it too, as main.LogLevel).
  const fuseLog = withMinLevel(deps.logger.child('fuse'), () => mountLogLevel(deps.config.get().rclone.log_level));
  const mount = new MountService(
    vfs,
    reader,
    handles,
    deps.config,
    fuseLog,
    deps.fuseReadAheadKb,
    undefined,
    deps.events,
  );
  const rclone = new RcloneService(deps.config, deps.logger.child('rclone'), () => mount.rclone.fs);
  const stopRefresh = deps.events.on('directory.changed', (e) => rclone.refresh(e.dir));
  const stopInvalidating = invalidateMountOnChange(deps.events, mount, fuseLog);
  const stopFollowing = followRemoteTreeChanges(deps.tree, mount, rclone, fuseLog);
  const mountAtStart = startMountIfEnabled(mount, deps.config, fuseLog);
  return {
    vfs,
    reader,
    handles,
    locks,
    mount,
    rclone,
    mountAtStart,
    async close() {
      await mountAtStart; // never unmount under a mount still being set up
      await mount.stop().catch((err: Error) => log.warn('unmount failed', { error: err.message }));
      stopRefresh();
      stopInvalidating();
      stopFollowing();
    },
  };
}

/**
 * What the kernel cached about a path that left the tree or changed (a file removed, moved, or replaced by a
 * re-import or a MOVE over it) is dropped at once, so it does not stay visible for dir_cache_time (docs/fuse.md).
 */
function invalidateMountOnChange(events: EventSource<SpoolEvents>, mount: MountService, log: Logger): () => void {
  const invalidate = (paths: string[]) =>
    void mount
      .invalidate(paths)
      .catch((err: Error) => log.warn('kernel cache invalidation failed', { error: err.message }));
  const stops = [
    events.on('file.removed', (e) => invalidate(e.paths)),
    events.on('file.moved', (e) => invalidate([e.from, e.to])),
    events.on('directory.changed', (e) => invalidate([e.dir])),
  ];
  return () => stops.forEach((stop) => stop());
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
