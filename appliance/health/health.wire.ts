/**
 * The health API's JSON shapes (docs/health.md, docs/console-contract.md when present). A pure type file: the
 * console may import it. Times are ISO strings; ids are numbers.
 */

import type { HealthStatus } from '../events/statuses.wire.js';

/** A health record's statuses (shared with the events that carry them). */
export { HEALTH_STATUSES, type HealthStatus } from '../events/statuses.wire.js';
/** What a check concludes (the other statuses are states of the record: not yet checked, checking, repairing). */
export type HealthVerdict = Extract<HealthStatus, 'healthy' | 'partial' | 'corrupted'>;

/** GET /api/health `sort_by` (default created_at) and `sort_order` (default desc). */
export const HEALTH_SORT_KEYS = ['file_path', 'status', 'created_at'] as const;
export type HealthSortKey = (typeof HEALTH_SORT_KEYS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** One file's health record (GET /api/health, /api/health/{path}, /api/health/corrupted). */
export interface HealthRecordJson {
  id: number;
  file_path: string;
  source_nzb_path: string | null;
  status: HealthStatus;
  last_error: string | null;
  error_details: string | null;
  retry_count: number;
  max_retries: number;
  repair_retry_count: number;
  max_repair_retries: number;
  last_checked: string | null;
  created_at: string;
  /** Where the missing or damaged articles sit: decoded byte ranges [start, end] of the file. */
  missing_ranges: { message_id: string; start_offset: number; end_offset: number; damaged: boolean }[];
  /** Articles the last verdict looked at, and of how many. */
  checked_segments: number;
  total_segments: number;
  /** When the scheduler will check the file next (null while a check runs or monitoring is off). */
  next_check: string | null;
  /** 'par2': the file's missing bytes were rebuilt from the release's PAR2 recovery data and it reads whole. */
  repaired_from: 'par2' | null;
}

/** GET /api/health/stats. */
export interface HealthStatsJson {
  total: number;
  pending: number;
  checking: number;
  healthy: number;
  partial: number;
  corrupted: number;
  repair_triggered: number;
}

/** GET /api/health/worker/status. */
export interface HealthWorkerStatusJson {
  /** 'running' while monitoring is enabled, 'stopped' otherwise. */
  status: 'running' | 'stopped';
  pending_manual_checks: number;
  total_files_checked: number;
  total_files_corrupted: number;
  total_runs_completed: number;
  last_run_time: string | null;
  active_checks: number;
  /** The repair brake is engaged: arr repairs stop when too many files turned bad at once (an outage, not takedowns). */
  repair_paused: boolean;
  repair_paused_reason: string | null;
}

/** POST /api/health/check. */
export interface ManualCheckBody {
  file_path: string;
  source_nzb_path?: string;
  priority?: boolean;
}

/** DELETE /api/health/cleanup. */
export interface HealthCleanupResult {
  deleted_count: number;
  message: string;
}

/** POST /api/health/bulk/delete: paths without a record are listed, not an error. */
export interface HealthBulkDeleteResult {
  deleted_count: number;
  missing_paths: string[];
  message: string;
}

/** POST /api/health/bulk/restart. */
export interface HealthBulkRestartResult {
  restarted_count: number;
  missing_paths: string[];
  message: string;
}

/** One age tier as GET /api/health/schedule reports it. */
export interface HealthTierJson {
  name: 'new' | 'recent' | 'old';
  /** Files younger than this are in the tier (null for the old tier: any age). */
  max_age_days: number | null;
  interval_hours: number;
  files: number;
}

/** GET /api/health/schedule: how well the schedule keeps up (docs/health.md, "Budget"). */
export interface HealthScheduleJson {
  total_files: number;
  /** Files whose last verdict came within the last `window_days` days, and their share of all (0-100). */
  window_days: number;
  verified_files: number;
  verified_percent: number;
  /** Files whose scheduled check is due now, and hours the budget needs for them. */
  backlog_files: number;
  backlog_hours: number;
  stat_budget_per_hour: number;
  body_budget_per_hour: number;
  /** Hours one check of every file takes at the budget; STATs and BODYs that pass sends. */
  full_pass_hours: number;
  stats_per_pass: number;
  bodies_per_pass: number;
  /** STATs and BODYs an hour the tiers ask for once the schedule runs steadily. */
  stat_demand_per_hour: number;
  body_demand_per_hour: number;
  /** The budget covers the demand and a full pass fits in the old tier's interval. */
  keeps_up: boolean;
  /** Mean articles per file (of the files a check has counted; 0 before any). */
  articles_per_file: number;
  tiers: HealthTierJson[];
  /** Why scheduled checks wait now: the budget is spent, or a player is reading; null when they do not. */
  held_by: 'budget' | 'playback' | null;
}

/** GET /api/health/repairs and POST /api/health/repairs/resume: the repair brake (docs/health.md). */
export interface RepairBrakeJson {
  engaged: boolean;
  /** Why it engaged; null while released. */
  reason: string | null;
  /** When it last engaged or was released; null when it never changed. */
  changed_at: string | null;
  /** The admin who released it last; null while engaged. */
  released_by: string | null;
  /** The settings it engages by (health.repair_breaker_percent, health.repair_breaker_window_minutes). */
  percent: number;
  window_minutes: number;
}

export const REPAIR_METHODS = ['par2', 'arr'] as const;
export const REPAIR_RESULTS = ['done', 'failed', 'held'] as const;
/** The steps of a repair the history shows (docs/health.md "Continuity"). */
export const REPAIR_STEPS = [
  'par2_tried',
  'arr_asked',
  'replacement_imported',
  'old_retired',
  'media_servers_told',
] as const;
export type RepairStep = (typeof REPAIR_STEPS)[number];
export const REPAIR_STEP_LABELS: Record<RepairStep, string> = {
  par2_tried: 'PAR2 tried',
  arr_asked: 'Arr asked',
  replacement_imported: 'Replacement imported',
  old_retired: 'Old release retired',
  media_servers_told: 'Media servers told',
};

/** One repair in GET /api/health/repairs/history (newest first, paged with limit and offset). */
export interface RepairHistoryJson {
  id: number;
  at: string;
  file_path: string;
  method: (typeof REPAIR_METHODS)[number];
  /** The arr instance that took it (arr repairs that reached one); null otherwise. */
  instance: string | null;
  result: (typeof REPAIR_RESULTS)[number];
  reason: string | null;
  /** Asked for by a person rather than the automatic loop. */
  manual: boolean;
  /** Which step of the repair this line is (absent on lines written before steps: PAR2 or arr asked by `method`). */
  step: RepairStep;
}
