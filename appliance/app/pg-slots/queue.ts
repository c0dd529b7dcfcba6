import type { QueueStore } from '../../importer/queue.port.js';
import { notBuiltYet, type PgSlot } from './slot.js';

/**
 * SLOT queue (items, NZB blobs, seen hashes, job-dir holds; `pg_notify('spool_queue', id)` on insert/change). To
 * fill: scope 'queue', migrations QUEUE_PG_MIGRATIONS (importer/queue-pg.migrations.ts), open: the PgQueueStore.
 */
export const queuePg: PgSlot<QueueStore> = notBuiltYet('queue', 'the import queue');
