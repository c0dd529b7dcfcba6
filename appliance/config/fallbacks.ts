/**
 * docs/console-contract.md §5 "numeric fallbacks when input is invalid": what a number field of the console turns into when what was
 * typed is not a number (empty, letters) or is a zero where zero is not allowed. Out-of-range numbers are kept as
 * typed on purpose: the server's validation then names the range, which is more useful than a silent clamp.
 * No Node imports here: the console imports this file too (pwa/src/features/config/serverConfig.ts), so its number
 * fields check the same ranges the schema enforces.
 */
export interface NumericField {
  min: number;
  max: number;
  fallback: number;
}

export const NUMERIC_FALLBACKS = {
  'webdav.port': { min: 1, max: 65535, fallback: 0 },
  'rclone.transfers': { min: 1, max: 32, fallback: 4 },
  'rclone.rc_port': { min: 1, max: 65535, fallback: 5572 },
  'streaming.max_cache_size_mb': { min: 1, max: 1024, fallback: 1 },
  'streaming.max_download_workers': { min: 1, max: 50, fallback: 1 },
  'import.max_processor_workers': { min: 1, max: 20, fallback: 1 },
  'import.queue_processing_interval_seconds': { min: 1, max: 300, fallback: 5 },
  'sabnzbd.categories.order': { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, fallback: 0 },
  // Not named in docs/console-contract.md §5; the console's number fields for these fall back to their §9 default (or the minimum).
  'health.max_concurrent_jobs': { min: 1, max: 10, fallback: 1 },
  'health.max_retries': { min: 0, max: 5, fallback: 0 },
  'health.check_interval_seconds': { min: 5, max: 86400, fallback: 5 },
  'rclone.uid': { min: 0, max: 4294967295, fallback: 1000 },
  'rclone.gid': { min: 0, max: 4294967295, fallback: 1000 },
  'rclone.vfs_read_chunk_streams': { min: 0, max: 64, fallback: 4 },
  // The arr-loop, health and log fields the console edits (issue 21): their docs/console-contract.md §9 defaults.
  'import.segment_sample_percentage': { min: 1, max: 100, fallback: 1 },
  'import.max_retries': { min: 0, max: 10, fallback: 3 },
  'import.watch_interval_seconds': { min: 1, max: 3600, fallback: 10 },
  'import.failed_item_retention_hours': { min: 0, max: 8760, fallback: 24 },
  'import.max_queued_items': { min: 0, max: 1000000, fallback: 1000 },
  'import.stuck_timeout_minutes': { min: 0, max: 1440, fallback: 30 },
  'health.max_repair_retries': { min: 0, max: 10, fallback: 3 },
  'health.segment_sample_percentage': { min: 1, max: 100, fallback: 5 },
  'health.repair_breaker_percent': { min: 1, max: 100, fallback: 30 },
  'health.repair_breaker_window_minutes': { min: 1, max: 1440, fallback: 30 },
  // The health budget and tiers (docs/health.md): their defaults.
  'health.stat_budget_per_hour': { min: 100, max: 10_000_000, fallback: 100_000 },
  'health.body_budget_per_hour': { min: 1, max: 1_000_000, fallback: 1200 },
  'health.tier_new_max_age_days': { min: 1, max: 3650, fallback: 7 },
  'health.tier_new_interval_hours': { min: 1, max: 8760, fallback: 24 },
  'health.tier_recent_max_age_days': { min: 1, max: 3650, fallback: 90 },
  'health.tier_recent_interval_hours': { min: 1, max: 8760, fallback: 168 },
  'health.tier_old_interval_hours': { min: 1, max: 8760, fallback: 720 },
  'health.verified_window_days': { min: 1, max: 365, fallback: 30 },
  'log.max_size': { min: 1, max: 10240, fallback: 100 },
  'log.max_age': { min: 0, max: 3650, fallback: 30 },
  'log.max_backups': { min: 0, max: 1000, fallback: 10 },
  // The notifications form (docs/notifications.md): their defaults.
  'notifications.min_interval_seconds': { min: 0, max: 86400, fallback: 300 },
  'notifications.timeout_seconds': { min: 1, max: 120, fallback: 10 },
  'notifications.stall_seconds': { min: 1, max: 3600, fallback: 30 },
  'notifications.backlog_growth': { min: 1, max: 1_000_000, fallback: 500 },
  // The media servers form (docs/mediaservers.md).
  'media_servers.debounce_seconds': { min: 0, max: 600, fallback: 10 },
  'media_servers.timeout_seconds': { min: 1, max: 120, fallback: 10 },
  // The backups settings (docs/backups.md).
  'backups.keep_count': { min: 0, max: 1000, fallback: 7 },
  'backups.keep_days': { min: 0, max: 3650, fallback: 30 },
} as const satisfies Record<string, NumericField>;

export type NumericFallbackField = keyof typeof NUMERIC_FALLBACKS;

/** The number a console field holds after the user typed `raw` (an <input> value or a number). */
export function numericFallback(field: NumericFallbackField, raw: string | number): number {
  const { min, fallback } = NUMERIC_FALLBACKS[field];
  const text = typeof raw === 'number' ? String(raw) : raw.trim();
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || (value === 0 && min > 0)) return fallback;
  return value;
}
