import { copyQueueToPg } from '../importer/queue-pg-copy.store.js';
import { QUEUE_PG_MIGRATIONS } from '../importer/queue-pg.migrations.js';
import type { PgDomain } from './migrate-to-pg.js';

/**
 * Every domain `spool migrate` moves into PostgreSQL: its schema steps and its copy from LMDB
 * (`<domain>-pg-copy.store.ts`). A domain's entry comes with its PostgreSQL store.
 */
export const PG_DOMAINS: readonly PgDomain[] = [
  {
    scope: 'queue',
    migrations: QUEUE_PG_MIGRATIONS,
    copy: ({ store, db, progress }) => copyQueueToPg(store, db, progress),
  },
];

/** The domains that keep records in LMDB: a migration that moved fewer is not whole (docs/deployment.md). */
export const PG_REQUIRED_COPIES = ['auth', 'queue', 'tree', 'health', 'repair', 'sabnzbd', 'streams'] as const;
