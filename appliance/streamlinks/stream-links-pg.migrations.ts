import { sqlMigration, type PgMigration } from '../store/pg/index.js';

/** Stream links' PostgreSQL schema (scope 'streamlinks'; what the tables hold: stream-links-pg.store.ts). */
export const STREAM_LINKS_PG_MIGRATIONS: PgMigration[] = [
  sqlMigration(
    1,
    'stream links and the one secret that signs them',
    `CREATE TABLE stream_links (
       id text PRIMARY KEY,
       created_at bigint NOT NULL,
       record jsonb NOT NULL)`,
    `CREATE TABLE stream_link_secret (
       one boolean PRIMARY KEY DEFAULT true CHECK (one),
       secret bytea NOT NULL)`,
  ),
];
