import type { ConfigService } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { createParseNzbPool } from '../../workers/parse-nzb.client.js';
import type { ArticleClient } from '../articles/index.js';
import { migrate } from '../store/index.js';
import { UnstreamableError } from './import-errors.js';
import { ImportRunner } from './import.runner.js';
import { JobOutputService, type OutputSettings } from './job-output.service.js';
import { QueueRepository } from './queue.repository.js';
import { NzbImporter, safeSegment, type ImportSettings } from './nzb-import.service.js';
import { QueueService } from './queue.service.js';
import type { QueueRecord } from './queue.types.js';
import { ScanService } from './scan.service.js';

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

export type UnstreamableHandler = (
  item: QueueRecord,
  err: UnstreamableError,
) => Promise<{ host: string; nzoId: string; reason: string } | undefined>;

export interface ImporterDomain {
  queue: QueueService;
  runner: ImportRunner;
  scan: ScanService;
  importer: NzbImporter;
  /** The import strategy: where completed jobs are published for download clients. */
  output: JobOutputService;
  /** Who takes an NZB Spool cannot stream (the SABnzbd fallback host); it answers where it went, or undefined. */
  onUnstreamable(handler: UnstreamableHandler): void;
  close(): Promise<void>;
}

const QUEUE_MIGRATIONS = [
  {
    version: 1,
    description: 'history index (completed and failed items by finish time, per category)',
    up: (store: Store) => void new QueueRepository(store).reindexHistory(),
  },
];

/** Builds the queue, the import runner (started here) and the directory scan. */
export function createImporter(deps: ImporterDeps): ImporterDomain {
  const log = deps.logger.child('importer');
  migrate(deps.store, 'queue', QUEUE_MIGRATIONS);
  const fallback: { handler?: UnstreamableHandler } = {};
  const output = new JobOutputService(() => outputSettings(deps.config, deps.vfs.completeDir), log.child('output'));
  const ensureFolders = () => void output.ensureCategoryFolders(categoryDirs(deps.config));
  ensureFolders();
  const stopWatching = deps.config.on('change', ensureFolders);
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
    job: async (item, signal) => {
      let result;
      try {
        result = await importer.run(item, signal);
      } catch (err) {
        // An NZB Spool cannot stream goes to the fallback SABnzbd when one is set (docs/sabnzbd.md).
        const forwarded = err instanceof UnstreamableError ? await fallback.handler?.(item, err) : undefined;
        if (!forwarded) throw err;
        return { targetPath: '', fileSize: item.fileSize, storagePath: null, forwarded };
      }
      return { ...result, storagePath: await output.publish(result.targetPath, result.files ?? []) };
    },
    logger: log,
    workers: startup.max_processor_workers,
    intervalMs: startup.queue_processing_interval_seconds * 1000,
    retryDelay: deps.retryDelay,
  });
  runner.start();
  const scan = new ScanService(queue, log.child('scan'));
  return {
    queue,
    runner,
    scan,
    importer,
    output,
    onUnstreamable: (handler) => void (fallback.handler = handler),
    async close() {
      stopWatching();
      scan.cancel();
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
    categoryDir: (category) => categoryDir(c.sabnzbd.categories, category),
  };
}

/** The import strategy's settings, read live (a PATCH applies to the next job). */
export function outputSettings(config: ConfigService, vfsCompleteDir: string): OutputSettings {
  const c = config.get();
  return {
    strategy: c.import.import_strategy,
    importDir: c.import.import_dir,
    mountPath: c.mount_path,
    vfsCompleteDir,
    strm: {
      baseUrl: c.import.strm_base_url || `http://localhost:${c.webdav.port}`,
      user: c.webdav.user,
      password: c.webdav.password,
    },
  };
}

/** Every configured category's directory plus the default one: folders the arrs expect to exist. */
export function categoryDirs(config: ConfigService): string[] {
  const cats = config.get().sabnzbd.categories;
  return [categoryDir(cats, null), ...cats.filter((c) => c.name !== '*').map((c) => categoryDir(cats, c.name))];
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
