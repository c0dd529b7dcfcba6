import { migrate, type StorageDomain } from '../store/index.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';
import { QUEUE_PG_MIGRATIONS } from './queue-pg.migrations.js';
import { PgQueueStore } from './queue-pg.store.js';
import { copyQueueToLmdb } from './queue-lmdb.copy.js';
import { copyQueueToPg } from './queue.copy.js';
import { QUEUE_MIGRATIONS } from './queue.migrations.js';
import type { QueueStore } from './queue.port.js';

/**
 * The import queue: items, NZB blobs, seen hashes, job directory holds. On PostgreSQL every write notifies
 * `spool_queue` with the item id, so the leader's runner wakes when another node queued an NZB.
 */
export const queueStorage: StorageDomain<{ queue: QueueStore }> = {
  scope: 'queue',
  lmdb({ local }) {
    migrate(local, 'queue', QUEUE_MIGRATIONS);
    return { queue: new LmdbQueueStore(local) };
  },
  pg: { migrations: QUEUE_PG_MIGRATIONS, open: ({ db }) => ({ queue: new PgQueueStore(db) }) },
  copy: ({ store, db, progress }) => copyQueueToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyQueueToLmdb(db, store, progress),
};
