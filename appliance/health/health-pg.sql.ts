import type { HealthListQuery } from './health.port.js';
import type { HealthRecord } from './health.types.js';
import { hasBadNews } from './health.verdicts.js';
import { HEALTH_STATUSES } from './health.wire.js';

/**
 * The SQL of the health store on PostgreSQL (health-pg.store.ts; schema in health-pg.migrations.ts): the indexed
 * columns a record is written with, and the queries whose text depends on the question (the console's list).
 */

/** The columns written beside `record`, in the order `columnsOf` gives their values. */
export const COLUMNS = [
  'path',
  'path_lower',
  'nzb_lower',
  'status',
  'status_rank',
  'created_at',
  'file_created_at',
  'tier',
  'next_check_at',
  'last_checked_at',
  'manual_rank',
  'manual_at',
  'repair_next_at',
  'total_segments',
  'bad',
] as const;

/** A record's indexed columns (as the LMDB store's `keysOf` indexes it). */
export function columnsOf(r: HealthRecord): unknown[] {
  return [
    r.path,
    r.path.toLowerCase(),
    (r.sourceNzbPath ?? '').toLowerCase(),
    r.status,
    HEALTH_STATUSES.indexOf(r.status),
    r.createdAt,
    r.fileCreatedAt,
    r.tier ?? 0,
    r.nextCheckAt,
    r.lastCheckedAt,
    r.manual ? (r.manual.priority ? 0 : 1) : null,
    r.manual ? r.manual.at : null,
    r.repairNextAt,
    r.totalSegments,
    hasBadNews(r),
  ];
}

/** `$from, $from+1, ...` for `n` parameters. */
function params(from: number, n: number): string {
  return Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
}

/** Inserts a new record under the next id; $1..$15 the columns, $16 the record without its id. */
export const INSERT_RECORD = `
  WITH n AS (SELECT nextval('health_record_ids') AS id)
  INSERT INTO health_records (id, ${COLUMNS.join(', ')}, record)
  SELECT n.id, ${params(1, COLUMNS.length)}, $${COLUMNS.length + 1}::jsonb || jsonb_build_object('id', n.id) FROM n
  RETURNING id::float8 AS id`;

/** Replaces record $1; $2..$16 the columns, $17 the record. */
export const UPDATE_RECORD = `
  UPDATE health_records SET ${COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ')},
    record = $${COLUMNS.length + 2}::jsonb
  WHERE id = $1`;

/**
 * The console's list as the LMDB store answers it: the filter (`where`, its values `whereValues`, also first in `values`), the order,
 * and the page (`page`, whose LIMIT and OFFSET values follow in `values`).
 */
export function listSql(q: HealthListQuery): {
  where: string;
  whereValues: unknown[];
  order: string;
  page: string;
  values: unknown[];
} {
  const values: unknown[] = [];
  const where: string[] = [];
  const search = q.search?.trim().toLowerCase() || undefined;
  if (q.status) where.push(`status = $${values.push(q.status)}`);
  if (q.since !== undefined) where.push(`created_at >= $${values.push(q.since)}`);
  if (search) {
    const at = values.push(search);
    where.push(`(strpos(path_lower, $${at}) > 0 OR strpos(nzb_lower, $${at}) > 0)`);
  }
  const dir = q.sortOrder === 'desc' ? 'DESC' : 'ASC';
  const order =
    q.sortBy === 'file_path'
      ? `path ${dir}`
      : q.sortBy === 'status'
        ? `status_rank ${dir}, created_at ${dir}, id ${dir}`
        : `created_at ${dir}, id ${dir}`;
  const whereValues = [...values];
  const offset = `OFFSET $${values.push(Math.max(0, q.offset))}`;
  const page = q.limit === 0 ? offset : `LIMIT $${values.push(Math.max(0, q.limit))} ${offset}`;
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', whereValues, order, page, values };
}
