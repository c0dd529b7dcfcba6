import { z } from 'zod';
import { validationFailed, zodToFieldErrors } from '../errors/field-errors.js';
import { parseTime } from '../importer/request-parsing.js';
import type { HealthListQuery } from '../health/health.port.js';
import { HEALTH_SORT_KEYS, HEALTH_STATUSES, SORT_ORDERS } from '../health/health.wire.js';

/** docs/console-contract.md §9: cleanup without a time removes records older than 7 days. */
export const CLEANUP_DEFAULT_AGE_MS = 7 * 24 * 3600_000;

// Not strict: apikey and cache busters ride along on every route.
const listQuery = z.object({
  // limit=0 means "all"; the console pages by 20.
  limit: z.coerce.number().int('limit must be a whole number').min(0).max(1000).default(20),
  offset: z.coerce.number().int('offset must be a whole number').min(0).default(0),
  status: z.enum(HEALTH_STATUSES).optional(),
  search: z.string().max(500).optional(),
  sort_by: z.enum(HEALTH_SORT_KEYS).default('created_at'),
  sort_order: z.enum(SORT_ORDERS).default('desc'),
});

/** GET /api/health and /api/health/corrupted query parameters. */
export function parseListQuery(query: URLSearchParams, forced?: Partial<HealthListQuery>): HealthListQuery {
  const parsed = listQuery.safeParse(Object.fromEntries(query));
  if (!parsed.success) throw validationFailed(zodToFieldErrors(parsed.error));
  const q = parsed.data;
  return {
    limit: q.limit,
    offset: q.offset,
    status: q.status,
    search: q.search?.trim() || undefined,
    since: parseTime(query.get('since'), 'since'),
    sortBy: q.sort_by,
    sortOrder: q.sort_order,
    ...forced,
  };
}

const filePath = z.string().trim().min(1, 'file_path is required').max(4096);
export const filePathsBody = z.object({ file_paths: z.array(filePath).min(1).max(10_000) });
export const retryBody = z.object({ reset_status: z.boolean().default(false) });
export const repairBody = z.object({ reset_repair_retry_count: z.boolean().default(false) });
export const checkBody = z.object({
  file_path: filePath,
  // The Files screen sends '' when the file's NZB is unknown; the file's own record fills it in.
  source_nzb_path: z.string().max(4096).optional(),
  priority: z.boolean().default(false),
});
export const cleanupBody = z.object({
  older_than: z.string().optional(),
  status: z.array(z.enum(HEALTH_STATUSES)).optional(),
});

/** Cleanup's cut-off: body older_than, else the query's, else 7 days before now. */
export function cleanupCutoff(bodyValue: string | undefined, query: URLSearchParams, now: number): number {
  return (
    parseTime(bodyValue ?? null, 'older_than') ??
    parseTime(query.get('older_than'), 'older_than') ??
    now - CLEANUP_DEFAULT_AGE_MS
  );
}

export function recordId(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw validationFailed([{ field: 'id', message: 'id must be a positive whole number' }]);
  return id;
}

/** A file path from the URL: '/complete/x.mkv', with or without the leading slash or a /webdav prefix. */
export function pathParam(raw: string | undefined): string {
  const p = (raw ?? '').replace(/^\/?webdav(?=\/|$)/, '');
  if (!p) throw validationFailed([{ field: 'path', message: 'path is required' }]);
  return p.startsWith('/') ? p : `/${p}`;
}

const historyQuery = z.object({
  limit: z.coerce.number().int('limit must be a whole number').min(1).max(200).default(20),
  offset: z.coerce.number().int('offset must be a whole number').min(0).default(0),
});

/** GET /api/health/repairs/history query parameters (newest first, 20 a page). */
export function parseHistoryQuery(query: URLSearchParams): { limit: number; offset: number } {
  const parsed = historyQuery.safeParse(Object.fromEntries(query));
  if (!parsed.success) throw validationFailed(zodToFieldErrors(parsed.error));
  return parsed.data;
}
