import type { PgMigration } from '../store/pg/index.js';

/** The round-trip history's PostgreSQL schema (scope 'latency'; what the table holds: latency-pg.store.ts). */
export const LATENCY_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'providers’ round-trip samples, one row per provider and hour',
    up: async (tx) => {
      await tx.query(
        `CREATE TABLE diagnostics_latency (
           provider text NOT NULL,
           hour bigint NOT NULL,
           samples double precision[] NOT NULL,
           PRIMARY KEY (provider, hour))`,
      );
    },
  },
];
