import type { PgMigration } from '../store/pg/index.js';

/**
 * The health domain's schema on PostgreSQL (scope 'health'; health-pg.store.ts). Step 1 also made the repair
 * ledger's tables, which the ledger's own first step moves to its names (repair/repair-ledger-pg.migrations.ts).
 * A record is kept whole as `record` (jsonb, what the LMDB store keeps) beside one column per question the port
 * asks, each indexed as the LMDB store's `health-index` keys are (health.store.ts):
 *   path (unique, byte order: COLLATE "C")       ['p', path]
 *   created_at, id                                ['c', createdAt, id]
 *   status_rank, created_at, id                   ['s', status, createdAt, id] (status filter and sort)
 *   tier, next_check_at, id                       ['d', tier, nextCheckAt, id] (due checks)
 *   last_checked_at / file_created_at             ['v', ...] / ['f', ...] (the schedule's figures)
 *   manual_rank, manual_at, id                    ['m', 0|1, queuedAt, id] (manual checks)
 *   repair_next_at, id                            ['r', repairNextAt, id] (repair back-offs)
 *   bad                                           ['b', id] (the records the VFS's verdicts hold)
 * path_lower and nzb_lower carry the search (JavaScript's toLowerCase, so it matches the LMDB store's).
 * Times are ms in float8, as JavaScript numbers are.
 */
export const HEALTH_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'health records with their indexed columns; the repair ledger (brake, history, broken releases)',
    up: async (tx) => {
      await tx.query(`
        CREATE SEQUENCE health_record_ids;
        CREATE TABLE health_records (
          id bigint PRIMARY KEY,
          path text COLLATE "C" NOT NULL UNIQUE,
          path_lower text NOT NULL,
          nzb_lower text NOT NULL,
          status text NOT NULL,
          status_rank smallint NOT NULL,
          created_at float8 NOT NULL,
          file_created_at float8 NOT NULL,
          tier smallint NOT NULL,
          next_check_at float8,
          last_checked_at float8,
          manual_rank smallint,
          manual_at float8,
          repair_next_at float8,
          total_segments float8 NOT NULL,
          bad boolean NOT NULL,
          record jsonb NOT NULL
        );
        CREATE INDEX health_records_created ON health_records (created_at, id);
        CREATE INDEX health_records_status ON health_records (status_rank, created_at, id);
        CREATE INDEX health_records_due ON health_records (tier, next_check_at, id) WHERE next_check_at IS NOT NULL;
        CREATE INDEX health_records_verified ON health_records (last_checked_at) WHERE last_checked_at IS NOT NULL;
        CREATE INDEX health_records_file_created ON health_records (file_created_at);
        CREATE INDEX health_records_manual ON health_records (manual_rank, manual_at, id) WHERE manual_rank IS NOT NULL;
        CREATE INDEX health_records_repair ON health_records (repair_next_at, id) WHERE repair_next_at IS NOT NULL;
        CREATE INDEX health_records_bad ON health_records (id) WHERE bad;
        CREATE TABLE health_meta (key text PRIMARY KEY, value jsonb NOT NULL);
        CREATE SEQUENCE health_repair_history_ids;
        CREATE TABLE health_repair_history (id bigint PRIMARY KEY, entry jsonb NOT NULL);
        CREATE TABLE health_broken_releases (fingerprint text PRIMARY KEY, release jsonb NOT NULL);
      `);
    },
  },
];
