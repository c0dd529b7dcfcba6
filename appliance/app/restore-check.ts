import {
  checkRestoredLibrary,
  RESTORE_CHECK_DEFAULTS,
  type BackupsService,
  type LibraryFile,
} from '../backup/index.js';
import type { HealthDomain } from '../health/index.js';
import type { NntpPool } from '../nntp/index.js';
import type { VfsService } from '../vfs/vfs.service.js';
import type { AppCore } from './core.js';

/** What the pass after a restore reads: the restored tree, the pool, the health budget. */
export interface RestoredLibrary {
  vfs: VfsService;
  pool: NntpPool;
  health: HealthDomain;
}

/**
 * The first start after a restore (the report's check `pending`) runs the sampled STAT pass over the restored
 * library (backup/restore-check.ts) in the background, on the health budget, and records its result in the
 * report and the log. Returns the stop (the app's stop aborts it; it runs again at the next start).
 */
export function checkAfterRestore(core: AppCore, backups: BackupsService, library: RestoredLibrary): () => void {
  const { config, logger } = core;
  const abort = new AbortController();
  const run = async () => {
    const report = await backups.lastRestore();
    if (report?.check.state !== 'pending' && report?.check.state !== 'running') return;
    await backups.recordCheck({ ...report.check, state: 'running' });
    const check = await checkRestoredLibrary(
      {
        files: () => libraryFiles(library.vfs),
        stat: (ids, signal) => library.pool.statBatch(ids, { priority: 'health', signal }),
        spend: (n, signal) => library.health.budget.stat.take(n, signal),
        hasProviders: () => config.get().providers.some((p) => p.enabled),
      },
      RESTORE_CHECK_DEFAULTS,
      abort.signal,
    );
    await backups.recordCheck(check);
    logger.info('restore check done: files the providers no longer have', {
      sampled: check.files_sampled,
      missing: check.missing_files.length,
      inconclusive: check.inconclusive,
      files: check.missing_files.slice(0, 50),
      note: check.note,
    });
  };
  void run().catch((err: unknown) => {
    if (!abort.signal.aborted) logger.warn('restore check stopped', { error: String(err) });
  });
  return () => abort.abort();
}

/** Every file of the tree, walked depth first; a file's articles are read from its layout when it is sampled. */
function* libraryFiles(vfs: VfsService, dir = '/'): Generator<LibraryFile> {
  for (const node of vfs.list(dir)) {
    if (node.type === 'directory') yield* libraryFiles(vfs, node.path);
    else yield { path: node.path, articles: () => vfs.layout(node).segments.map((s) => s.messageId) };
  }
}
