import type { PgMigration } from '../store/pg/index.js';

/**
 * The queue's PostgreSQL schema (scope 'queue'; queue-pg.store.ts). Each item is its record as jsonb (what the
 * LMDB store keeps in `queue-items`) plus the columns the port's queries read, derived from the record on every
 * write (queue-pg.rows.ts), which stand in for the LMDB `queue-index` keys:
 *   status, updated_at          lists, counts, idsWithStatus
 *   run_priority                the priority of a pending item the runner may take (null otherwise)
 *   retry_at                    when a retrying item the runner may take is due (null otherwise)
 *   finished_at, history_category  history items (completed, failed, repairing) and their category ('*' = none)
 *   queue_item_words            the search words (a search reads one range of it per word searched)
 * Ids come from a sequence and are never reused. Times are epoch ms as double precision, numbers as the records
 * keep them. NZBs, their seen hashes and job directory holds have tables of their own; an item's NZB, words and
 * holds go with it (ON DELETE CASCADE), its seen hash stays.
 */
export const QUEUE_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'queue items, their NZBs, seen hashes and job directory holds',
    up: async (tx) => {
      await tx.query(`
        CREATE SEQUENCE queue_item_ids AS bigint;
        CREATE TABLE queue_items (
          id bigint PRIMARY KEY,
          record jsonb NOT NULL,
          status text NOT NULL,
          updated_at double precision NOT NULL,
          run_priority double precision,
          retry_at double precision,
          finished_at double precision,
          history_category text
        );
        CREATE INDEX queue_items_updated ON queue_items (updated_at, id);
        CREATE INDEX queue_items_status ON queue_items (status, updated_at, id);
        CREATE INDEX queue_items_runnable ON queue_items (run_priority DESC, id) WHERE run_priority IS NOT NULL;
        CREATE INDEX queue_items_retry ON queue_items (retry_at, id) WHERE retry_at IS NOT NULL;
        CREATE INDEX queue_items_history ON queue_items (finished_at, id) WHERE finished_at IS NOT NULL;
        CREATE INDEX queue_items_history_category ON queue_items (history_category, finished_at, id)
          WHERE finished_at IS NOT NULL;
        CREATE TABLE queue_item_words (
          word text COLLATE "C" NOT NULL,
          item_id bigint NOT NULL REFERENCES queue_items (id) ON DELETE CASCADE,
          PRIMARY KEY (word, item_id)
        );
        CREATE INDEX queue_item_words_item ON queue_item_words (item_id);
        CREATE TABLE queue_nzbs (
          item_id bigint PRIMARY KEY REFERENCES queue_items (id) ON DELETE CASCADE,
          packed bytea NOT NULL
        );
        -- already brotli-compressed (nzb-pack.ts): stored out of line without a second compression
        ALTER TABLE queue_nzbs ALTER COLUMN packed SET STORAGE EXTERNAL;
        CREATE TABLE queue_seen (
          hash text PRIMARY KEY,
          item_id bigint NOT NULL
        );
        CREATE TABLE queue_job_dirs (
          path text COLLATE "C" PRIMARY KEY,
          item_id bigint NOT NULL REFERENCES queue_items (id) ON DELETE CASCADE
        );
        CREATE INDEX queue_job_dirs_item ON queue_job_dirs (item_id);
      `);
    },
  },
];
