import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createParseNzbPool } from '../../workers/parse-nzb.client.js';
import { createSevenZipKeyPool, sevenZipKeysIn } from '../../workers/sevenzip-key.client.js';
import type { Clock } from '../clock/clock.js';
import type { ConfigService } from '../config/index.js';
import type { EventBus, SpoolEvents } from '../events/index.js';
import type { ArticleClient } from '../articles/index.js';
import { ImportRunner } from '../importer/import.runner.js';
import { importSettings } from '../importer/import-settings.js';
import type { ImporterDomain, UnstreamableHandler } from '../importer/importer.types.js';
import { isUnstreamable } from '../importer/import-errors.js';
import { NzbImporter, type NzbImporterDeps } from '../importer/nzb-import.service.js';
import { QueueService } from '../importer/queue.service.js';
import { ScanService } from '../importer/scan.service.js';
import type { Logger } from '../logging/logger.js';
import { JobOutputService } from '../importer/job-output.service.js';
import type { QueueStore } from '../importer/queue.port.js';
import { categoryDirs, outputSettings } from '../importer/output-settings.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { startFailedRetention } from '../importer/failed-retention.js';
import { startWatchDir } from '../importer/watch-dir.js';
import type { BrokenReleaseLookup } from '../importer/import-checks.js';
import type { BackgroundWork } from './leadership.js';

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
  /** Releases a health verdict found broken (the health store's ledger): refused at import. */
  brokenRelease?: BrokenReleaseLookup;
  /** SABnzbd's pause or resume asked of this node, for the other nodes (several nodes: app/create-app.ts). */
  onPauseChange?: (paused: boolean) => void;
}

/**
 * Builds the queue, the import runner and the directory scan. The runner, the watch folder and the failed-item
 * retention run only on the node that leads: `background`, started and stopped by app/leadership.ts.
 */
export function buildImporter(deps: ImporterDeps): ImporterDomain & { background: BackgroundWork } {
  const log = deps.logger.child('importer');
  const fallback: { handler?: UnstreamableHandler } = {};
  const output = new JobOutputService(() => outputSettings(deps.config, deps.vfs.completeDir), log.child('output'));
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
  });
  const startup = deps.config.get().import;
  const runner = new ImportRunner({
    queue,
    job: async (item, signal) => {
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
    },
    logger: log,
    workers: startup.max_processor_workers,
    intervalMs: startup.queue_processing_interval_seconds * 1000,
    retryDelay: deps.retryDelay,
    now: () => deps.clock.now(),
    // docs/import.md "Stuck imports": read at each check, so a change applies to imports already running.
    stuckTimeoutMs: () => deps.config.get().import.stuck_timeout_minutes * 60_000,
    clock: deps.clock,
    onPauseChange: deps.onPauseChange,
  });
  // New work wakes the runner: an item added, or one back to pending (retry, restart, resume).
  const stopWaking = [
    deps.events.on('queue.item.added', runner.wake),
    deps.events.on('queue.item.changed', (e) => {
      if (e.status === 'pending' && !e.paused) runner.wake();
    }),
    // The stuck-import watchdog counts silence from an import's last progress.
    deps.events.on('import.progress', (e) => runner.progress(e.id)),
  ];
  const scanRoots = () => deps.config.get().import.scan_roots.map((r) => resolve(deps.config.dataDir, r));
  // The default root is ours to create, so a fresh install has a place to drop NZBs for a scan.
  const defaultRoot = join(deps.config.dataDir, 'nzb');
  if (scanRoots().includes(defaultRoot)) mkdirSync(defaultRoot, { recursive: true });
  const scan = new ScanService(queue, log.child('scan'), scanRoots);
  let stopBackground: ((lost: boolean) => Promise<void>) | null = null;
  const background: BackgroundWork = {
    name: 'imports',
    start() {
      if (stopBackground) return;
      runner.start();
      const stopRetention = startFailedRetention(
        queue,
        () => deps.config.get().import.failed_item_retention_hours,
        log.child('retention'),
      );
      const watch = startWatchDir(queue, () => deps.config.get().import, log.child('watch'));
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
      for (const stop of stopWaking) stop();
      scan.cancel();
      await background.stop(false);
      await runner.stop();
      await scan.finished();
      await parsePool.destroy();
      await kdfPool.destroy();
    },
  };
}
