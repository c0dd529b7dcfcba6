import type { PgDomain } from './migrate-to-pg.js';

/**
 * Every domain `spool migrate` moves into PostgreSQL: its schema steps and its copy from LMDB
 * (`<domain>-pg-copy.store.ts`). A domain's entry comes with its PostgreSQL store.
 */
export const PG_DOMAINS: readonly PgDomain[] = [];

/** The domains that keep records in LMDB: a migration that moved fewer is not whole (docs/deployment.md). */
export const PG_REQUIRED_COPIES = ['auth', 'queue', 'tree', 'health', 'repair', 'sabnzbd', 'streams'] as const;
