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
  {
    version: 2,
    description: 'the fit sampler: counts per day, candidate and post-age band; seconds watched per day',
    up: async (tx) => {
      const names = [
        'current_had',
        'current_missing',
        'candidate_had',
        'candidate_missing',
        'filled',
        'unfilled',
        'errors',
      ];
      const counters = names.map((c) => `${c} bigint NOT NULL`).join(', ');
      await tx.query(
        `CREATE TABLE provider_fit (day text NOT NULL, candidate text NOT NULL, band text NOT NULL, ${counters},
           PRIMARY KEY (day, candidate, band))`,
      );
      await tx.query('CREATE TABLE provider_watched (day text PRIMARY KEY, seconds bigint NOT NULL)');
    },
  },
];
