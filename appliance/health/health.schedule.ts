const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** First retry after a check without a verdict; doubles per retry, capped at the file's normal period. */
export const RETRY_BASE_MS = 60_000;

/** The age tiers, from the `health` config keys `tier_*` (docs/health.md, "Schedule"). */
export interface AgeTiers {
  newMaxAgeDays: number;
  newIntervalHours: number;
  recentMaxAgeDays: number;
  recentIntervalHours: number;
  oldIntervalHours: number;
}

/** 0 new, 1 recent, 2 old: also the order in which due files are picked (new ones first). */
export type Tier = 0 | 1 | 2;
export const TIER_NAMES = ['new', 'recent', 'old'] as const;

/** The tier of a file `fileAgeMs` old: younger than `newMaxAgeDays` new, than `recentMaxAgeDays` recent, else old. */
export function tierOf(fileAgeMs: number, t: AgeTiers): Tier {
  if (fileAgeMs < t.newMaxAgeDays * DAY_MS) return 0;
  if (fileAgeMs < t.recentMaxAgeDays * DAY_MS) return 1;
  return 2;
}

/** How long a file of a tier waits between two checks. */
export function tierIntervalMs(tier: Tier, t: AgeTiers): number {
  const hours = tier === 0 ? t.newIntervalHours : tier === 1 ? t.recentIntervalHours : t.oldIntervalHours;
  return hours * HOUR_MS;
}

/**
 * The one scheduling rule: after a verdict a file is checked again after its age tier's interval. Takedowns come
 * early in a release's life, so new files are looked at often (daily by default), recent ones weekly, old ones
 * monthly.
 */
export function recheckDelayMs(fileAgeMs: number, t: AgeTiers): number {
  return tierIntervalMs(tierOf(fileAgeMs, t), t);
}

/** After a check without a verdict: 1, 2, 4 ... minutes, never later than the normal schedule. */
export function retryDelayMs(retry: number, normalMs: number): number {
  return Math.min(normalMs, RETRY_BASE_MS * 2 ** Math.max(0, retry - 1));
}

/** Back-off between automatic repair attempts: 15 min, 30 min, 1 h ... capped at a day. */
export function repairDelayMs(attempt: number): number {
  return Math.min(24 * 3600_000, 15 * 60_000 * 2 ** Math.max(0, attempt - 1));
}
