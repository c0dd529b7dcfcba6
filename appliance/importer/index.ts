/**
 * The importer: the queue (LMDB), the runner, the import itself, uploads and directory scans.
 *
 *   const importer = createImporter({ store, config, vfs, client: pool, logger });
 *   await importer.queue.enqueue({ nzb: bytes, nzbPath: 'Show.S01E01.nzb', category: 'tv', priority: 0 });
 *   importer.queue.list({ limit: 20, offset: 0, status: 'failed' }) -> { items, total }
 *   importer.scan.start('/nzbs')  /  importer.scan.status()  /  importer.scan.cancel()
 *   readNzbUpload(ctx.req, ['file']) -> { filename, bytes, fields }  (multipart, .nzb only, <= 100 MB)
 * A finished import is a job at /complete/<category dir>/<job name>/ in the VFS; the queue item's target_path.
 */
export {
  createImporter,
  categoryDir,
  importSettings,
  type ImporterDeps,
  type ImporterDomain,
  type UnstreamableHandler,
} from './importer.domain.js';
export { QueueService, jobNameFromPath, type EnqueueInput } from './queue.service.js';
export { QueueRepository, searchWords } from './queue.repository.js';
export { ImportRunner, type ImportJob, type ImportResult, type RunnerOptions } from './import.runner.js';
export { NzbImporter, toVfsLayout } from './nzb-import.service.js';
export { ImportError, UnstreamableError, nonRetryableError, retryableError, retryDelayMs } from './import-errors.js';
export { ScanService, type ScanStatus } from './scan.service.js';
export {
  readNzbUpload,
  MAX_NZB_BYTES,
  UPLOAD_BODY_LIMIT,
  NOT_NZB_MESSAGE,
  TOO_LARGE_MESSAGE,
  type NzbUpload,
} from './nzb-upload.js';
export type { ArticleClient } from '../articles/index.js';
export * from './queue.types.js';
