import { backlogHours, estimatePass, type PassSettings } from './health.pass.js';
import type { HealthStore } from './health.port.js';
import { TIER_NAMES } from './health.schedule.js';
import type { HealthScheduleJson } from './health.wire.js';

const DAY_MS = 24 * 3600_000;

export interface FiguresInput {
  store: HealthStore;
  settings: PassSettings & { windowDays: number };
  now: number;
  heldBy: 'budget' | 'playback' | null;
}

/**
 * GET /api/health/schedule: the share of the library verified in the last N days, the backlog, the budget and
 * what one full pass takes at it. Every count is a range count of the store's indexes: no record is read.
 */
export async function scheduleFigures({ store, settings: s, now, heldBy }: FiguresInput): Promise<HealthScheduleJson> {
  const counts = await store.counts();
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const newFrom = now - s.tiers.newMaxAgeDays * DAY_MS;
  const recentFrom = now - s.tiers.recentMaxAgeDays * DAY_MS;
  const newFiles = await store.filesCreatedBetween(newFrom, Number.MAX_SAFE_INTEGER);
  // A recent tier ending before the new one is empty (tierOf: such files are old).
  const recentFiles = recentFrom < newFrom ? await store.filesCreatedBetween(recentFrom, newFrom) : 0;
  const tierFiles = [newFiles, recentFiles, Math.max(0, total - newFiles - recentFiles)] as const;
  const measured = await store.articleTotals();
  const articlesPerFile = measured.files > 0 ? measured.articles / measured.files : 0;
  const verified = await store.verifiedSince(now - s.windowDays * DAY_MS);
  const backlog = await store.dueCount(now);
  const pass = estimatePass({ tierFiles, articlesPerFile }, s);
  const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;
  return {
    total_files: total,
    window_days: s.windowDays,
    verified_files: verified,
    verified_percent: total > 0 ? round((100 * verified) / total) : 0,
    backlog_files: backlog,
    backlog_hours: round(backlogHours(backlog, articlesPerFile, s)),
    stat_budget_per_hour: s.statBudgetPerHour,
    body_budget_per_hour: s.bodyBudgetPerHour,
    full_pass_hours: round(pass.fullPassHours),
    stats_per_pass: Math.round(pass.statsPerPass),
    bodies_per_pass: Math.round(pass.bodiesPerPass),
    stat_demand_per_hour: Math.round(pass.statDemandPerHour),
    body_demand_per_hour: Math.round(pass.bodyDemandPerHour),
    keeps_up: pass.keepsUp,
    articles_per_file: Math.round(articlesPerFile),
    tiers: TIER_NAMES.map((name, i) => ({
      name,
      max_age_days: i === 0 ? s.tiers.newMaxAgeDays : i === 1 ? s.tiers.recentMaxAgeDays : null,
      interval_hours: [s.tiers.newIntervalHours, s.tiers.recentIntervalHours, s.tiers.oldIntervalHours][i]!,
      files: tierFiles[i]!,
    })),
    held_by: heldBy,
  };
}
