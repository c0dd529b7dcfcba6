/** The longest wait between two checks of a file, however old it is. */
export const MAX_RECHECK_MS = 7 * 24 * 3600_000;
/** First retry after a check without a verdict; doubles per retry, capped at the file's normal period. */
export const RETRY_BASE_MS = 60_000;

/**
 * Age-based schedule (docs/health.md): a file is checked again after a wait as long as its age, at least
 * `check_interval_seconds` and at most a week. Takedowns come early in a release's life, so a new file is looked
 * at often (at 1, 2, 4, 8 ... hours of age) and an old one weekly.
 */
export function recheckDelayMs(fileAgeMs: number, intervalMs: number): number {
  return Math.min(MAX_RECHECK_MS, Math.max(intervalMs, fileAgeMs));
}

/** After a check without a verdict: 1, 2, 4 ... minutes, never later than the normal schedule. */
export function retryDelayMs(retry: number, normalMs: number): number {
  return Math.min(normalMs, RETRY_BASE_MS * 2 ** Math.max(0, retry - 1));
}

/** Back-off between automatic repair attempts: 15 min, 30 min, 1 h ... capped at a day. */
export function repairDelayMs(attempt: number): number {
  return Math.min(24 * 3600_000, 15 * 60_000 * 2 ** Math.max(0, attempt - 1));
}
