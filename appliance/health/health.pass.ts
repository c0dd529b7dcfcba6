import { BODY_SPOT_CHECKS } from './check-plan.js';
import { tierIntervalMs, type AgeTiers, type Tier } from './health.schedule.js';

/**
 * What the schedule costs and whether the budget keeps up (docs/health.md, "Budget"): pure arithmetic, exported
 * for the console's figures (HealthService.schedule) and the scale bench.
 */

/** What a check asks of a file's articles (the settings that shape it). */
export interface SampleSettings {
  checkAll: boolean;
  /** `segment_sample_percentage`. */
  samplePercent: number;
}

export interface PassSettings extends SampleSettings {
  statBudgetPerHour: number;
  bodyBudgetPerHour: number;
  tiers: AgeTiers;
}

/** The library: files per age tier (new, recent, old) and the mean articles per file. */
export interface LibraryShape {
  tierFiles: readonly [number, number, number];
  articlesPerFile: number;
}

/**
 * STATs one check of a file of `articles` sends when nothing is bad (check-plan.ts): its sample (the first and
 * last article and `samplePercent`% of the file), plus the BODY spot-checks, STATed too; every article with
 * `checkAll`. A check that finds a bad article STATs the whole file: that is not part of the regular cost.
 */
export function statsPerCheck(articles: number, s: SampleSettings): number {
  if (articles <= 0) return 0;
  if (s.checkAll) return Math.ceil(articles);
  return Math.min(Math.ceil(articles), Math.ceil((articles * s.samplePercent) / 100) + 2 + BODY_SPOT_CHECKS);
}

/** Bodies one check fetches whole (its spot-checks). */
export function bodiesPerCheck(articles: number): number {
  return Math.min(Math.ceil(Math.max(0, articles)), BODY_SPOT_CHECKS);
}

export interface PassEstimate {
  /** STATs and BODYs of one check of every file. */
  statsPerPass: number;
  bodiesPerPass: number;
  /** Hours one check of every file takes at the budget (the slower of the two buckets). */
  fullPassHours: number;
  /** STATs and BODYs an hour the tiers ask for once the schedule runs steadily. */
  statDemandPerHour: number;
  bodyDemandPerHour: number;
  /** The budget covers the demand and a full pass fits in the old tier's interval: nothing falls behind. */
  keepsUp: boolean;
}

/** One full pass at the budget, and the steady demand of the tiers. */
export function estimatePass(lib: LibraryShape, s: PassSettings): PassEstimate {
  const files = lib.tierFiles.reduce((a, b) => a + b, 0);
  const stats = statsPerCheck(lib.articlesPerFile, s);
  const bodies = bodiesPerCheck(lib.articlesPerFile);
  const statsPerPass = files * stats;
  const bodiesPerPass = files * bodies;
  const fullPassHours = Math.max(statsPerPass / s.statBudgetPerHour, bodiesPerPass / s.bodyBudgetPerHour);
  let checksPerHour = 0;
  lib.tierFiles.forEach((n, tier) => (checksPerHour += n / (tierIntervalMs(tier as Tier, s.tiers) / 3600_000)));
  const statDemandPerHour = checksPerHour * stats;
  const bodyDemandPerHour = checksPerHour * bodies;
  const keepsUp =
    statDemandPerHour <= s.statBudgetPerHour &&
    bodyDemandPerHour <= s.bodyBudgetPerHour &&
    fullPassHours <= s.tiers.oldIntervalHours;
  return { statsPerPass, bodiesPerPass, fullPassHours, statDemandPerHour, bodyDemandPerHour, keepsUp };
}

/** Hours the budget needs to check `dueFiles` files of `articlesPerFile` articles (the backlog at the budget). */
export function backlogHours(dueFiles: number, articlesPerFile: number, s: PassSettings): number {
  const stats = (dueFiles * statsPerCheck(articlesPerFile, s)) / s.statBudgetPerHour;
  const bodies = (dueFiles * bodiesPerCheck(articlesPerFile)) / s.bodyBudgetPerHour;
  return Math.max(stats, bodies);
}
