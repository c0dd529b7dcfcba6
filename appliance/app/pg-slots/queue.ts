import { PgQueueStore } from '../../importer/queue-pg.store.js';
import { QUEUE_PG_MIGRATIONS } from '../../importer/queue-pg.migrations.js';
import type { QueueStore } from '../../importer/queue.port.js';
import type { PgSlot } from './slot.js';

/**
 * The import queue on PostgreSQL (items, NZB blobs, seen hashes, job directory holds; every write notifies
 * `spool_queue` with the item id, so the leader's runner wakes when another node queued an NZB). Its schema is
 * migrated by app/stores-pg.ts before `open`.
 */
export const queuePg: PgSlot<QueueStore> = {
  scope: 'queue',
  migrations: QUEUE_PG_MIGRATIONS,
  open: ({ db }) => new PgQueueStore(db),
};
