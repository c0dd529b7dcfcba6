import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createParseNzbPool } from '../../workers/parse-nzb.client.js';
import { createSevenZipKeyPool, sevenZipKeysIn } from '../../workers/sevenzip-key.client.js';
import type { Clock } from '../clock/clock.js';
import type { ConfigService } from '../config/index.js';
import type { EventBus, SpoolEvents } from '../events/index.js';
import type { ArticleClient } from '../articles/index.js';
import { ImportRunner, type RunnerOptions } from '../importer/import.runner.js';
import { importSettings } from '../importer/import-settings.js';
import type { ImporterDomain, UnstreamableHandler } from '../importer/importer.types.js';
import { isUnstreamable } from '../importer/import-errors.js';
import { NzbImporter, type NzbImporterDeps } from '../importer/nzb-import.service.js';
import type { ProbeKeeper } from '../importer/probe-articles.js';
import { QueueService } from '../importer/queue.service.js';
import { ScanService } from '../importer/scan.service.js';
import type { Logger } from '../logging/logger.js';
import { storeDataFile } from '../store/index.js';
import { releaseMemory, releaseUnavailable } from '../addons/release-memory.js';
import { JobOutputService } from '../importer/job-output.service.js';
import type { QueueStore } from '../importer/queue.port.js';
import type { Par2RepairService } from '../repair/index.js';
import { categoryDirs, outputSettings } from '../importer/output-settings.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { startFailedRetention } from '../importer/failed-retention.js';
import { startWatchDir } from '../importer/watch-dir.js';
import type { BrokenReleaseLookup } from '../importer/import-checks.js';
import type { BackgroundWork } from './cluster/leadership.js';
import { pauseToOtherNodes } from './cluster/signals.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';

export interface ImporterDeps {
  /** The queue's store (app/stores.ts). */
  queue: QueueStore;
  config: ConfigService;
  vfs: VfsService;
  /** The NNTP pool (imports use its 'import' lane, below streams and health checks). */
  client: ArticleClient;
  logger: Logger;
  clock: Clock;
  /** The app's bus: the queue announces its items on it; config saves come from it. */
  events: EventBus<SpoolEvents>;
  /** Tests shorten the back-off between retries. */
  retryDelay?: (attempt: number) => number;
  /** Keeps a release's PAR2 layouts for a PAR2 repair later (appliance/repair). */
  keepPar2?: NzbImporterDeps['keepPar2'];
  /** Rebuilds missing articles from the kept PAR2 files before an import completes (appliance/repair). */
  repair?: NzbImporterDeps['repair'];
  /** Releases a health verdict found broken (the repair ledger): refused at import. */
  brokenRelease?: BrokenReleaseLookup;
  /** The probe cache (vfs/probe-cache.ts): imports keep each media file's probe articles in it. */
  probes?: ProbeKeeper;
  /** SABnzbd's pause or resume asked of this node, for the other nodes (several nodes: app/create-app.ts). */
  onPauseChange?: (paused: boolean) => void;
  /** Signs the read-only link a `.strm` file carries (app/stream-links.ts); absent: the webdav.user URL. */
  signedLink?: (vfsPath: string) => Promise<string>;
}

/** The importer's parts, and its `background`: what only the node that leads runs. */
export type Importer = ImporterDomain & { background: BackgroundWork };

/**
 * The import queue on the queue's port, the runner importing into the tree through the pool, and the directory
 * scan. A release's PAR2 layouts are kept (the kept PAR2 files' port) and missing articles they cover rebuilt
 * before an item completes (docs/import.md); a release a health verdict found broken is refused (docs/health.md,
 * "Broken releases"); SABnzbd's pause reaches the other nodes (app/cluster/signals.ts).
 */
export function createImporter(
  core: AppCore,
  vfs: VfsService,
  client: ArticleClient,
  repair: Par2RepairService,
  signedLink?: (vfsPath: string) => Promise<string>,
  probes?: ProbeKeeper,
): Built<Importer> {
  const { stores, logger } = core;
  const importer = buildImporter({
    ...core,
    queue: stores.queue,
    vfs,
    client,
    keepPar2: (id, files) => stores.par2Files.put(id, files),
    repair,
    brokenRelease: (fingerprint) => stores.repairLedger.broken(fingerprint),
    onPauseChange: pauseToOtherNodes(stores.pg, logger.child('importer')),
    signedLink,
    probes,
  });
  return built(importer, () => importer.close());
}

/**
 * Builds the queue, the import runner and the directory scan. The runner, the watch folder and the failed-item
 * retention run only on the node that leads: `background`, started and stopped by app/cluster/leadership.ts.
 */
function buildImporter(deps: ImporterDeps): Importer {
  const log = deps.logger.child('importer');
  const fallback: { handler?: UnstreamableHandler } = {};
  const output = new JobOutputService(
    () => outputSettings(deps.config, deps.vfs.completeDir, deps.signedLink),
    log.child('output'),
  );
  const ensureFolders = () => void output.ensureCategoryFolders(categoryDirs(deps.config));
  ensureFolders();
  const stopWatching = deps.events.on('config.changed', ensureFolders);
  const queue = new QueueService(
    deps.queue,
    () => ({
      maxRetries: deps.config.get().import.max_retries,
      maxQueuedItems: deps.config.get().import.max_queued_items,
    }),
    Date.now,
    deps.events,
  );
  const parsePool = createParseNzbPool();
  const kdfPool = createSevenZipKeyPool();
  const importer = new NzbImporter({
    queue,
    vfs: deps.vfs,
    client: deps.client,
    parsePool,
    sevenZipKeys: sevenZipKeysIn(kdfPool),
    settings: () => importSettings(deps.config),
    logger: log,
    events: deps.events,
    keepPar2: deps.keepPar2,
    repair: deps.repair,
    brokenRelease: deps.brokenRelease,
    probes: deps.probes,
  });
  const runner = importRunner(deps, queue, log, async (item, signal) => {
    let result;
    try {
      result = await importer.run(item, signal);
    } catch (err) {
      // An NZB Spool cannot stream goes to the fallback SABnzbd when one is set (docs/sabnzbd.md).
      const forwarded = isUnstreamable(err) ? await fallback.handler?.(item, err) : undefined;
      if (!forwarded) throw err;
      return { targetPath: '', fileSize: item.fileSize, storagePath: null, forwarded };
    }
    return { ...result, storagePath: await output.publish(result.targetPath, result.files ?? []) };
  });
  const stopWaking = wakeOnNewWork(deps.events, runner);
  const scan = new ScanService(queue, log.child('scan'), scanRoots(deps.config));
  const background = importsInBackground(deps.config, queue, runner, log);
  return {
    queue,
    runner,
    scan,
    importer,
    output,
    onUnstreamable: (handler) => void (fallback.handler = handler),
    background,
    async close() {
      stopWatching();
      stopWaking();
      scan.cancel();
      await background.stop(false);
      await runner.stop();
      await scan.finished();
      await parsePool.destroy();
      await kdfPool.destroy();
    },
  };
}

/** The runner with the config's workers, interval and stuck-import timeout (docs/import.md "Stuck imports"). */
function importRunner(deps: ImporterDeps, queue: QueueService, log: Logger, job: RunnerOptions['job']): ImportRunner {
  const startup = deps.config.get().import;
  if (releaseUnavailable) log.info('memory is not given back after large imports', { reason: releaseUnavailable });
  return new ImportRunner({
    queue,
    job,
    logger: log,
    workers: startup.max_processor_workers,
    intervalMs: startup.queue_processing_interval_seconds * 1000,
    retryDelay: deps.retryDelay,
    now: () => deps.clock.now(),
    // read at each check, so a change applies to imports already running
    stuckTimeoutMs: () => deps.config.get().import.stuck_timeout_minutes * 60_000,
    clock: deps.clock,
    onPauseChange: deps.onPauseChange,
    afterBurst: () => giveMemoryBack(log, lmdbFile(deps.config)),
  });
}

/** The node's own LMDB data file (app/stores.ts opens the store at `metadata.root_path`). */
function lmdbFile(config: ConfigService): string {
  return storeDataFile(resolve(config.dataDir, config.get().metadata.root_path));
}

/**
 * After a burst of imports: a full collection, malloc_trim and the LMDB file's pages unmapped
 * (addons/release-memory.ts), logged at debug.
 */
function giveMemoryBack(log: Logger, lmdbDataFile: string): void {
  const released = releaseMemory([lmdbDataFile]);
  if (released)
    log.debug('memory given back after imports', {
      rss_before_mb: Math.round(released.rssBefore / 2 ** 20),
      rss_after_mb: Math.round(released.rssAfter / 2 ** 20),
      ms: Math.round(released.ms),
    });
}

/** New work wakes the runner: an item added, or one back to pending (retry, restart, resume). Returns the stop. */
function wakeOnNewWork(events: EventBus<SpoolEvents>, runner: ImportRunner): () => void {
  const stops = [
    events.on('queue.item.added', runner.wake),
    events.on('queue.item.changed', (e) => {
      if (e.status === 'pending' && !e.paused) runner.wake();
    }),
    // The stuck-import watchdog counts silence from an import's last progress.
    events.on('import.progress', (e) => runner.progress(e.id)),
  ];
  return () => stops.forEach((stop) => stop());
}

/** The scan roots, read live; the default root is ours to create, so a fresh install has a place to drop NZBs. */
function scanRoots(config: ConfigService): () => string[] {
  const roots = () => config.get().import.scan_roots.map((r) => resolve(config.dataDir, r));
  const defaultRoot = join(config.dataDir, 'nzb');
  if (roots().includes(defaultRoot)) mkdirSync(defaultRoot, { recursive: true });
  return roots;
}

/** The runner, the failed-item retention and the watch folder: started and stopped by leadership. */
function importsInBackground(
  config: ConfigService,
  queue: QueueService,
  runner: ImportRunner,
  log: Logger,
): BackgroundWork {
  let stopBackground: ((lost: boolean) => Promise<void>) | null = null;
  return {
    name: 'imports',
    start() {
      if (stopBackground) return;
      runner.start();
      const stopRetention = startFailedRetention(
        queue,
        () => config.get().import.failed_item_retention_hours,
        log.child('retention'),
      );
      const watch = startWatchDir(queue, () => config.get().import, log.child('watch'));
      stopBackground = async (lost) => {
        stopRetention();
        watch.stop();
        await watch.idle();
        await runner.stop({ handOver: lost });
      };
    },
    async stop(lost) {
      const stop = stopBackground;
      stopBackground = null;
      await stop?.(lost);
    },
  };
}
