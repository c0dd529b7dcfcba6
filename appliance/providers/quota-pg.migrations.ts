import { sqlMigration, type PgMigration } from '../store/pg/index.js';

/** The quota meter's PostgreSQL schema (scope 'quota'; what the table holds: quota-pg.store.ts). */
export const QUOTA_PG_MIGRATIONS: PgMigration[] = [
  sqlMigration(
    1,
    'quota notices sent per provider and period, and lifetime quotas’ starting points',
    `CREATE TABLE provider_quota_marks (
       provider text NOT NULL,
       mark text NOT NULL,
       setting bigint,
       counted bigint,
       PRIMARY KEY (provider, mark))`,
  ),
];
