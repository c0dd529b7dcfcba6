import type { Migration } from '../store/index.js';
import { QueueTables } from './queue.store.js';

/** The queue's LMDB schema steps (store/migrations.ts), run by the app before the queue is built. */
export const QUEUE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'history index (completed and failed items by finish time, per category)',
    up: (store) => void new QueueTables(store).reindexHistory(),
  },
];
