import { sampleIndexes } from '../articles/index.js';
import type { HealthVerdict } from './health.wire.js';
import type { MissingArticle } from './health.types.js';

/** BODY spot-checks per check: decoded and CRC-checked, because some providers answer STAT for dead bodies. */
export const BODY_SPOT_CHECKS = 3;
/** Above this share of bad articles a file is corrupted even when its first and last articles are fine. */
export const CORRUPTED_SHARE = 0.01;

export interface CheckPlan {
  /** Article indexes to STAT. */
  stat: number[];
  /** Article indexes to fetch whole (BODY), decode and CRC-check. */
  body: number[];
  /** True when `stat` is every article. */
  full: boolean;
}

/**
 * What one check asks: STAT of the first and last article and `samplePercent`% of the rest (every article with
 * `checkAll`), plus a BODY of a few articles picked at random anywhere in the file. Articles that reads could not get (`evidence`) are
 * always in both lists.
 */
export function planCheck(
  count: number,
  opts: { checkAll: boolean; samplePercent: number; evidence?: readonly number[] },
  random: () => number = Math.random,
): CheckPlan {
  const stat = new Set(sampleIndexes(count, opts.checkAll ? 100 : opts.samplePercent, random, 0));
  const evidence = (opts.evidence ?? []).filter((i) => i >= 0 && i < count);
  // Spot-checks are drawn from the whole file, not only the STAT sample; they are STATed too (cheap, and a 430
  // there spares the download).
  const body = new Set(evidence);
  for (let tries = 0; body.size < evidence.length + Math.min(BODY_SPOT_CHECKS, count) && tries < 100; tries++)
    body.add(Math.floor(random() * count));
  for (const i of body) stat.add(i);
  return { stat: [...stat].sort((a, b) => a - b), body: [...body].sort((a, b) => a - b), full: stat.size >= count };
}

/**
 * The verdict from a complete picture of which articles are bad (missing on every provider, or damaged):
 * - healthy: none;
 * - corrupted: the first or the last article is bad (they hold container headers and indexes: the file does not
 *   open or seek), or more than CORRUPTED_SHARE of the articles looked at are bad;
 * - partial: otherwise (a few holes: the file plays with glitches).
 */
export function verdictOf(total: number, looked: number, bad: readonly MissingArticle[]): HealthVerdict {
  if (bad.length === 0) return 'healthy';
  if (bad.some((m) => m.index === 0 || m.index === total - 1)) return 'corrupted';
  return bad.length / Math.max(1, looked) > CORRUPTED_SHARE ? 'corrupted' : 'partial';
}
