import { sqlMigration, type PgMigration } from '../store/pg/index.js';

/** The Streams view's PostgreSQL schema (scope 'streams'; what the tables hold: fetched-bytes-pg.store.ts,
 * cluster-streams-pg.store.ts). */
export const STREAMS_PG_MIGRATIONS: PgMigration[] = [
  sqlMigration(
    1,
    'bytes the pool fetched per class per day',
    `CREATE TABLE stream_fetched_bytes (
       day text PRIMARY KEY,
       player bigint NOT NULL,
       read_ahead bigint NOT NULL,
       scanner bigint NOT NULL,
       health bigint NOT NULL,
       import bigint NOT NULL)`,
  ),
  sqlMigration(
    2,
    "each node's open streams (cluster-streams-pg.store.ts)",
    `CREATE TABLE cluster_streams (
       node text PRIMARY KEY,
       streams jsonb NOT NULL,
       at timestamptz NOT NULL)`,
  ),
];
