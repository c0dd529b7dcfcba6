import type { PgMigration, PgTx } from '../store/pg/index.js';

/**
 * The repair ledger's schema on PostgreSQL (scope 'repair-ledger'; repair-ledger-pg.store.ts):
 *   repair_ledger_meta      key 'brake': the repair brake (survives a restart engaged)
 *   repair_history          the repair history, ids from the sequence repair_history_ids
 *   repair_broken_releases  releases a verdict found broken, by fingerprint (checked at import)
 * A database made before the ledger was repair's own keeps it in health's scope (health-pg.migrations.ts step 1
 * still makes those tables): the first step moves them here, rows and all, and the brake out of `health_meta`.
 */
export const REPAIR_LEDGER_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: "the ledger's own tables: the history and the broken releases moved from health's, the brake",
    up: async (tx) => {
      if (await exists(tx, 'health_repair_history'))
        await tx.query(`
          ALTER TABLE health_repair_history RENAME TO repair_history;
          ALTER INDEX health_repair_history_pkey RENAME TO repair_history_pkey;
          ALTER SEQUENCE health_repair_history_ids RENAME TO repair_history_ids;
          ALTER TABLE health_broken_releases RENAME TO repair_broken_releases;
          ALTER INDEX health_broken_releases_pkey RENAME TO repair_broken_releases_pkey;
        `);
      else
        await tx.query(`
          CREATE SEQUENCE repair_history_ids;
          CREATE TABLE repair_history (id bigint PRIMARY KEY, entry jsonb NOT NULL);
          CREATE TABLE repair_broken_releases (fingerprint text PRIMARY KEY, release jsonb NOT NULL);
        `);
      await tx.query('CREATE TABLE repair_ledger_meta (key text PRIMARY KEY, value jsonb NOT NULL)');
      if (await exists(tx, 'health_meta'))
        await tx.query(`
          INSERT INTO repair_ledger_meta (key, value) SELECT key, value FROM health_meta WHERE key = 'brake';
          DELETE FROM health_meta WHERE key = 'brake';
        `);
    },
  },
];

/** Whether the current schema has a table (or sequence) of this name. */
async function exists(tx: PgTx, name: string): Promise<boolean> {
  const found = await tx.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
  return found.rows[0]!.found;
}
