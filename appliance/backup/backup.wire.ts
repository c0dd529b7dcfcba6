/** GET /api/system/backups (docs/console-contract.md, "Backups"): one archive in the backups folder. */
export interface BackupItem {
  /** The file's name in `<data dir>/backups` (also its id in the routes). */
  name: string;
  size: number;
  /** When the backup was taken (its manifest), ISO 8601; the file's time when the manifest cannot be read. */
  created: string;
  /** How it came: on the schedule, asked for, uploaded, or the safety backup written before a restore. */
  kind: BackupKind;
  keep_forever: boolean;
  /** The Spool version that wrote it and its store; null when the manifest cannot be read (a damaged archive). */
  spool_version: string | null;
  store: 'lmdb' | 'postgres' | null;
}

export type BackupKind = 'scheduled' | 'manual' | 'uploaded' | 'pre-restore';

export interface BackupList {
  items: BackupItem[];
  /** The schedule (`backups.schedule`) and when it next runs (ISO 8601; null when off or not leading). */
  schedule: string;
  next_run: string | null;
  /** The last restore's outcome, when there was one (kept across the restart into it). */
  last_restore: RestoreReport | null;
}

/**
 * GET /api/system/backups/schedule?expression= : a schedule read by the server's own cron parser (croner), so the
 * console never parses cron itself; `expression` absent previews the saved `backups.schedule`.
 */
export interface SchedulePreview {
  schedule: string;
  /** Why croner refuses it (its own words); null when it reads. */
  error: string | null;
  /** The next times it fires (ISO 8601; at most SCHEDULE_PREVIEW_RUNS); empty for `off` or a refused expression. */
  next_runs: string[];
}

/** How many coming run times a schedule preview lists. */
export const SCHEDULE_PREVIEW_RUNS = 3;

/** What a restore did, and what the sampled STAT pass after it found. */
export interface RestoreReport {
  archive: string;
  restored_at: string;
  /** The backup's own time and version. */
  created: string;
  spool_version: string;
  safety_backup: string | null;
  /** The sampled STAT pass over the restored library (docs/backups.md "After a restore"). */
  check: RestoreCheck;
}

export interface RestoreCheck {
  state: 'pending' | 'running' | 'done' | 'skipped';
  /** Files sampled, articles asked. */
  files_sampled: number;
  articles_checked: number;
  /** Files the providers no longer have (every provider that should have it answered 430), by path. */
  missing_files: string[];
  /** Articles no verdict was reached on (an outage, a timeout): never counted as missing. */
  inconclusive: number;
  /** Why the pass stopped or was skipped (no providers, the budget spent), if it did. */
  note: string | null;
}
