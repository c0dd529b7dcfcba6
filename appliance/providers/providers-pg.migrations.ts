import type { PgMigration } from '../store/pg/index.js';

/** The providers domain's PostgreSQL schema (scope 'providers'; what the table holds: availability-pg.store.ts). */
export const PROVIDERS_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'articles each provider had and did not have, per day and post-age band',
    up: async (tx) => {
      await tx.query(
        `CREATE TABLE provider_availability (
           day text NOT NULL,
           provider text NOT NULL,
           band text NOT NULL,
           had bigint NOT NULL,
           missing bigint NOT NULL,
           PRIMARY KEY (day, provider, band))`,
      );
    },
  },
];
