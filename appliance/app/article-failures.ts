import type { Logger } from '../logging/logger.js';
import type { VfsReader } from '../vfs/reader.js';
import type { VfsService } from '../vfs/vfs.service.js';

export interface ArticleFailureDeps {
  reader: VfsReader;
  vfs: VfsService;
  logger: Logger;
}

/**
 * What a read that could not get an article tells the rest of the app: the one place the reader's article events
 * are handled. A missing article is logged and recorded on the node (so GET /api/files/info shows the segment
 * unavailable after a restart too); health takes it as evidence here as well.
 */
export function wireArticleFailures({ reader, vfs, logger }: ArticleFailureDeps): void {
  reader.on('article-failure', (f) => {
    logger.warn('article unavailable', { ...f });
    vfs
      .recordMissing(f.path, [f.messageId])
      .catch((err: Error) => logger.warn('could not record a missing article', { error: err.message }));
  });
  // An outage is not evidence (docs/streaming.md): logged only, the file's status is left alone.
  reader.on('article-unreachable', (f) => logger.warn('article could not be fetched: providers unreachable', { ...f }));
  reader.on('article-recovered', (r) => {
    vfs
      .clearMissing(r.path, r.messageIds)
      .catch((err: Error) => logger.warn('could not clear a missing mark', { error: err.message }));
  });
}
