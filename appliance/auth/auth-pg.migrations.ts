import type { PgMigration } from '../store/pg/index.js';

/** The auth domain's PostgreSQL schema (scope 'auth'; what each table holds: user-pg.store.ts, session-pg.store.ts). */
export const AUTH_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'users (with their name, email and API key lookups) and sessions by the hash of their id',
    up: async (tx) => {
      // "C" collation: ids sort by their bytes, as LMDB's keys do (ids are time-ordered: creation order)
      await tx.query(
        `CREATE TABLE auth_users (
           id text COLLATE "C" PRIMARY KEY,
           name_key text NOT NULL UNIQUE,
           email_key text UNIQUE,
           api_key text NOT NULL UNIQUE,
           record jsonb NOT NULL)`,
      );
      await tx.query(
        `CREATE TABLE auth_sessions (
           id_hash text PRIMARY KEY,
           user_id text NOT NULL,
           created_at bigint NOT NULL,
           expires_at bigint NOT NULL)`,
      );
      await tx.query('CREATE INDEX auth_sessions_user ON auth_sessions (user_id)');
      await tx.query('CREATE INDEX auth_sessions_expiry ON auth_sessions (expires_at)');
    },
  },
  {
    version: 2,
    description: 'named API keys, found by the hash of their secret (the secret is never stored)',
    up: async (tx) => {
      await tx.query(
        `CREATE TABLE auth_api_keys (
           id text COLLATE "C" PRIMARY KEY,
           user_id text NOT NULL,
           hash text NOT NULL UNIQUE,
           record jsonb NOT NULL)`,
      );
      await tx.query('CREATE INDEX auth_api_keys_user ON auth_api_keys (user_id)');
    },
  },
];
