import { sqlMigration, type PgMigration } from '../store/pg/index.js';

/** The SABnzbd API's PostgreSQL schema (scope 'sabnzbd'; what each table holds: sabnzbd-pg.store.ts). */
export const SABNZBD_PG_MIGRATIONS: PgMigration[] = [
  sqlMigration(
    1,
    'the nzo_id salt and the download totals per provider and day',
    `CREATE TABLE sabnzbd_meta (key text PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE sabnzbd_download_totals (
       day text NOT NULL,
       provider_id text NOT NULL,
       host text NOT NULL,
       bytes bigint NOT NULL,
       tried bigint NOT NULL,
       failed bigint NOT NULL,
       PRIMARY KEY (day, provider_id))`,
  ),
];
