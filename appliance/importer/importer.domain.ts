import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConfigService } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { createParseNzbPool } from '../../workers/parse-nzb.client.js';
import type { ArticleClient } from '../articles/index.js';
import { ImportRunner } from './import.runner.js';
import { NzbImporter, safeSegment, type ImportSettings } from './nzb-import.service.js';
import { QueueService } from './queue.service.js';
import { startFailedRetention } from './failed-retention.js';
import { ScanService } from './scan.service.js';
import { startWatchDir } from './watch-dir.js';

export interface ImporterDeps {
  store: Store;
  config: ConfigService;
  vfs: VfsService;
  /** The NNTP pool (imports use its 'import' lane, below streams and health checks). */
  client: ArticleClient;
  logger: Logger;
  /** Tests shorten the back-off between retries. */
  retryDelay?: (attempt: number) => number;
}

export interface ImporterDomain {
  queue: QueueService;
  runner: ImportRunner;
  scan: ScanService;
  importer: NzbImporter;
  close(): Promise<void>;
}

/** Builds the queue, the import runner (started here) and the directory scan. */
export function createImporter(deps: ImporterDeps): ImporterDomain {
  const log = deps.logger.child('importer');
  const queue = new QueueService(deps.store, () => ({ maxRetries: deps.config.get().import.max_retries }));
  const parsePool = createParseNzbPool();
  const importer = new NzbImporter({
    queue,
    vfs: deps.vfs,
    client: deps.client,
    parsePool,
    settings: () => importSettings(deps.config),
    logger: log,
  });
  const startup = deps.config.get().import;
  const runner = new ImportRunner({
    queue,
    job: (item, signal) => importer.run(item, signal),
    logger: log,
    workers: startup.max_processor_workers,
    intervalMs: startup.queue_processing_interval_seconds * 1000,
    retryDelay: deps.retryDelay,
  });
  runner.start();
  const scanRoots = () => deps.config.get().import.scan_roots.map((r) => resolve(deps.config.dataDir, r));
  // The default root is ours to create, so a fresh install has a place to drop NZBs for a scan.
  const defaultRoot = join(deps.config.dataDir, 'nzb');
  if (scanRoots().includes(defaultRoot)) mkdirSync(defaultRoot, { recursive: true });
  const scan = new ScanService(queue, log.child('scan'), scanRoots);
  const stopRetention = startFailedRetention(
    queue,
    () => deps.config.get().import.failed_item_retention_hours,
    log.child('retention'),
  );
  const watch = startWatchDir(queue, () => deps.config.get().import, log.child('watch'));
  return {
    queue,
    runner,
    scan,
    importer,
    async close() {
      stopRetention();
      watch.stop();
      scan.cancel();
      await watch.idle();
      await runner.stop();
      await scan.finished();
      await parsePool.destroy();
    },
  };
}

/** Live import settings: a PATCH to the sample percentage or the categories applies to the next import. */
export function importSettings(config: ConfigService): ImportSettings {
  const c = config.get();
  return {
    samplePercentage: c.import.segment_sample_percentage,
    showArchiveVolumes: c.import.show_archive_volumes,
    categoryDir: (category) => categoryDir(c.sabnzbd.categories, category),
  };
}

/**
 * The directory of a category under the complete dir: the configured category's `dir` (or its name), matched
 * case-insensitively; an unknown category gets a directory of its own name (SABnzbd does the same). Without a
 * category, a configured 'default' or '*' category, else 'default' (ARCHITECTURE.md: uploads and scans go there).
 */
export function categoryDir(categories: readonly { name: string; dir?: string }[], category: string | null): string {
  const wanted = category?.trim() || null;
  const lookup = (name: string) => categories.find((c) => c.name.toLowerCase() === name.toLowerCase());
  const match = wanted ? lookup(wanted) : (lookup('default') ?? lookup('*'));
  const dir = match?.dir?.trim() || (match && match.name !== '*' ? match.name : undefined) || wanted || 'default';
  return safeSegment(dir.replace(/\//g, '_'), 'default');
}
