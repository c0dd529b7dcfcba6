import type { EventSource, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import type { RepairControl } from '../repair/index.js';

/**
 * The repair history hears every repair's end, whichever way it was made (PAR2 in place, or an arr: the events'
 * `method`), and keeps it in the repair ledger (GET /api/health/repairs/history; docs/health.md). Returns the
 * unsubscribe.
 */
export function wireRepairHistory(
  events: EventSource<SpoolEvents>,
  repairs: RepairControl,
  logger: Logger,
): () => void {
  const kept = (work: Promise<void>) =>
    void work.catch((err: Error) => logger.error('could not keep a repair in the history', { error: err.message }));
  const stops = [
    events.on('repair.done', (e) => kept(repairs.record('done', e))),
    events.on('repair.failed', (e) => kept(repairs.record('failed', e))),
    events.on('repair.held', (e) => kept(repairs.record('held', e))),
    events.on('repair.step', (e) => kept(repairs.recordStep(e))),
    // a media server refresh that carried a repair's swap is that repair's last step
    events.on('mediaserver.refreshed', (e) => {
      if (e.state === 'retrying') return;
      for (const r of e.repairs)
        kept(
          repairs.recordStep({
            record_id: r.record_id,
            path: r.folder,
            step: 'media_servers_told',
            instance: e.server,
            ok: e.state === 'done',
            detail: e.error,
          }),
        );
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
