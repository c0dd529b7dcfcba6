import { sqlMigration, type PgMigration } from '../store/pg/index.js';

/** The fit sampler's counters, one column each (fit-pg.store.ts). */
const FIT_COUNTERS = [
  'current_had',
  'current_missing',
  'candidate_had',
  'candidate_missing',
  'filled',
  'unfilled',
  'errors',
]
  .map((c) => `${c} bigint NOT NULL`)
  .join(', ');

/** The providers domain's PostgreSQL schema (scope 'providers'; what the table holds: availability-pg.store.ts). */
export const PROVIDERS_PG_MIGRATIONS: PgMigration[] = [
  sqlMigration(
    1,
    'articles each provider had and did not have, per day and post-age band',
    `CREATE TABLE provider_availability (
       day text NOT NULL,
       provider text NOT NULL,
       band text NOT NULL,
       had bigint NOT NULL,
       missing bigint NOT NULL,
       PRIMARY KEY (day, provider, band))`,
  ),
  sqlMigration(
    2,
    'the fit sampler: counts per day, candidate and post-age band; seconds watched per day',
    `CREATE TABLE provider_fit (day text NOT NULL, candidate text NOT NULL, band text NOT NULL, ${FIT_COUNTERS},
       PRIMARY KEY (day, candidate, band))`,
    'CREATE TABLE provider_watched (day text PRIMARY KEY, seconds bigint NOT NULL)',
  ),
];
