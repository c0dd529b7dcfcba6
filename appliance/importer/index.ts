/**
 * The importer: the queue (behind its port, queue.port.ts; on LMDB in the app), the runner, the import itself,
 * uploads and directory scans. The app builds it (appliance/app/importer.ts); routes use the parts:
 *
 *   await importer.queue.enqueue({ nzb: bytes, nzbPath: 'Show.S01E01.nzb', category: 'tv', priority: 0 });
 *   await importer.queue.list({ limit: 20, offset: 0, status: 'failed' }) -> { items, total }
 *   importer.scan.start('/nzbs')  /  importer.scan.status()  /  importer.scan.cancel()
 *   readNzbUpload(ctx.req, ['file']) -> { filename, bytes, fields }  (multipart, .nzb only, <= 100 MB)
 * A finished import is a job at /complete/<category dir>/<job name>/ in the VFS; the queue item's target_path.
 */
export type { ImporterDomain } from './importer.types.js';
export { readNzbUpload, UPLOAD_BODY_LIMIT, type NzbUpload } from './nzb-upload.js';
export { toQueueJson } from './queue.types.js';
export { QUEUE_STATUSES } from './queue.wire.js';
export { MAX_NZB_BYTES } from './nzb-upload.js';
export { categoryDir } from './import-settings.js';
export type { QueueRecord } from './queue.types.js';
export type { QueuePriority } from './queue.wire.js';
export { ImportError, UnstreamableError } from './import-errors.js';
export type { UnstreamableHandler } from './importer.types.js';
