import { sqlMigration, type PgMigration } from '../store/pg/index.js';

/** The round-trip history's PostgreSQL schema (scope 'latency'; what the table holds: latency-pg.store.ts). */
export const LATENCY_PG_MIGRATIONS: PgMigration[] = [
  sqlMigration(
    1,
    'providers’ round-trip samples, one row per provider and hour',
    `CREATE TABLE diagnostics_latency (
       provider text NOT NULL,
       hour bigint NOT NULL,
       samples double precision[] NOT NULL,
       PRIMARY KEY (provider, hour))`,
  ),
];
