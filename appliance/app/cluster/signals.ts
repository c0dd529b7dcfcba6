import type { ImportRunner } from '../../importer/import.runner.js';
import type { Logger } from '../../logging/logger.js';
import type { PgDb } from '../../store/pg/index.js';

/** The queue's PostgreSQL store notifies here on every insert and change (importer/queue-pg.store.ts). */
const QUEUE_CHANNEL = 'spool_queue';
/** SABnzbd's global pause asked of one node, for every node ('1' paused, '0' resumed). */
const PAUSE_CHANNEL = 'spool_import_pause';

/**
 * The runner's `onPauseChange` on several nodes: a pause or resume the SABnzbd API took here reaches every node
 * (the leader's runner is the one that holds back), so any node answers `paused` alike. Undefined on one node.
 */
export function pauseToOtherNodes(db: PgDb | undefined, logger: Logger): ((paused: boolean) => void) | undefined {
  if (!db) return undefined;
  return (paused) =>
    void db
      .notify(PAUSE_CHANNEL, paused ? '1' : '0')
      .catch((err: Error) => logger.warn('could not tell the other nodes of the pause', { error: err.message }));
}

/**
 * What the import runner hears from other nodes (docs/architecture.md, "Several nodes"): new or restarted queue
 * work (claimed here only while this node leads) and the SABnzbd pause. Returns the unsubscribe.
 */
export function listenToOtherNodes(db: PgDb | undefined, runner: ImportRunner): () => void {
  if (!db) return () => undefined;
  const stops = [
    db.listen(QUEUE_CHANNEL, runner.wake, runner.wake),
    db.listen(PAUSE_CHANNEL, (payload) => runner.applyPause(payload === '1')),
  ];
  return () => stops.forEach((stop) => stop());
}
