import type { EventSource, SpoolEvents } from '../events/index.js';
import type { HealthDomain } from '../health/index.js';
import type { Logger } from '../logging/logger.js';

export interface ArticleFailureDeps {
  /** The reader's outcomes arrive here as read.article.* events. */
  events: EventSource<SpoolEvents>;
  health: HealthDomain;
  logger: Logger;
}

/**
 * The one place the reader's read outcomes are handled. A 430 everywhere or a bad CRC is evidence: kept on the
 * file's health record (so GET /api/files/info shows the segment unavailable) and a check is queued. An outage is
 * only logged (docs/health.md). A good read of an article once marked clears the mark on the record.
 */
export function wireArticleFailures({ events, health, logger }: ArticleFailureDeps): void {
  events.on('read.article.failed', (f) => {
    logger.warn('article unavailable', { ...f });
    health.service
      .readFailed(f)
      .catch((err: Error) => logger.warn('could not record read evidence', { error: err.message }));
  });
  events.on('read.article.unreachable', (f) =>
    logger.warn('article could not be fetched: providers unreachable', { ...f }),
  );
  events.on('read.article.recovered', (r) => {
    health.service
      .readRecovered(r.path, r.messageIds)
      .catch((err: Error) => logger.warn('could not clear a health mark', { error: err.message }));
  });
}
