import type { PgMigration } from '../store/pg/index.js';

/**
 * The configuration document every node shares on PostgreSQL (config-pg.store.ts): one row, node-local keys
 * absent, its version bumped by each save.
 */
export const CONFIG_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'the shared configuration document',
    async up(tx) {
      await tx.query(`CREATE TABLE spool_config (
        id smallint PRIMARY KEY CHECK (id = 1),
        version integer NOT NULL,
        doc jsonb NOT NULL,
        saved_at timestamptz NOT NULL DEFAULT now()
      )`);
    },
  },
];
