import { systemClock, type Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { QueueService } from './queue.service.js';

const HOUR_MS = 3600_000;
/** Often enough that an item leaves within minutes of its time; each sweep is one index range read. */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * `import.failed_item_retention_hours`: a failed item leaves the queue that many hours after it failed (its last
 * update), so the failed list does not grow forever; 0 keeps failed items until someone clears them. Sweeps at
 * start and every ten minutes, reading the setting each time (a change applies at the next sweep). Returns stop.
 */
export function startFailedRetention(
  queue: QueueService,
  hours: () => number,
  logger: Logger,
  clock: Clock = systemClock,
): () => void {
  let cancel: () => void = () => undefined;
  let stopped = false;
  const sweep = async () => {
    const h = hours();
    if (h > 0) {
      try {
        const { deleted } = await queue.clear('failed', clock.now() - h * HOUR_MS);
        if (deleted > 0) logger.info('failed items past their retention removed', { count: deleted, hours: h });
      } catch (err) {
        logger.warn('failed-item retention sweep failed', { error: (err as Error).message });
      }
    }
    if (!stopped) cancel = clock.schedule(() => void sweep(), SWEEP_EVERY_MS);
  };
  void sweep();
  return () => {
    stopped = true;
    cancel();
  };
}
