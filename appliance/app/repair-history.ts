import type { EventSource, SpoolEvents } from '../events/index.js';
import type { HealthDomain } from '../health/index.js';
import type { Logger } from '../logging/logger.js';

/**
 * The repair history hears every repair's end, whichever way it was made (PAR2 in place, or an arr: the events'
 * `method`), and keeps it in the health store (GET /api/health/repairs/history; docs/health.md). Returns the
 * unsubscribe.
 */
export function wireRepairHistory(events: EventSource<SpoolEvents>, health: HealthDomain, logger: Logger): () => void {
  const kept = (work: Promise<void>) =>
    void work.catch((err: Error) => logger.error('could not keep a repair in the history', { error: err.message }));
  const stops = [
    events.on('repair.done', (e) => kept(health.repairs.record('done', e))),
    events.on('repair.failed', (e) => kept(health.repairs.record('failed', e))),
    events.on('repair.held', (e) => kept(health.repairs.record('held', e))),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
