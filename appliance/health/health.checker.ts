import { bodyOutcome, mapLimit, statMany, type ArticleClient, type ArticleOutcome } from '../articles/index.js';
import { articleSizeOf } from '../layout/index.js';
import type { VfsSegment } from '../vfs/types.js';
import { planCheck, verdictOf } from './check-plan.js';
import type { Spender } from './health.budget.js';
import type { MissingArticle } from './health.types.js';
import type { HealthVerdict } from './health.wire.js';

/** STATs in flight per check; the pool pipelines them over its connections on the health lane. */
export const STAT_CONCURRENCY = 64;
const BODY_CONCURRENCY = 3;

export interface CheckInput {
  segments: readonly VfsSegment[];
  checkAll: boolean;
  samplePercent: number;
  /** Message ids that reads could not get: always checked (STAT and BODY). */
  evidence?: readonly string[];
  signal: AbortSignal;
  random?: () => number;
  /** Where the check's STATs and BODYs are paid for (health.budget.ts): asked before each batch is sent. */
  spend?: Spender;
  /** STATs in flight (default STAT_CONCURRENCY; the runner narrows it while streams play). */
  window?: number;
}

export type CheckResult =
  | { kind: 'verdict'; status: HealthVerdict; missing: MissingArticle[]; checked: number; total: number }
  /** Some answer could not be had (timeout, refused, auth, no provider): no verdict, try again later. */
  | { kind: 'inconclusive'; reason: string; unreachable: number; checked: number; total: number };

/**
 * One check of one file on the pool's health lane. A sample that finds anything bad is widened to a STAT of every
 * article, so the verdict and the byte ranges shown are exact, not estimated. Aborting the signal cancels it.
 */
export async function checkFile(client: ArticleClient, input: CheckInput): Promise<CheckResult> {
  const segs = input.segments;
  const total = segs.length;
  const evidenceIds = new Set(input.evidence ?? []);
  const evidence = segs.flatMap((s, i) => (evidenceIds.has(s.messageId) ? [i] : []));
  const plan = planCheck(
    total,
    { checkAll: input.checkAll, samplePercent: input.samplePercent, evidence },
    input.random,
  );
  const outcomes = new Map<number, ArticleOutcome>();
  const stat = async (indexes: number[]) => {
    await input.spend?.stat(indexes.length, input.signal);
    const got = await statMany(
      client,
      indexes.map((i) => segs[i]!.messageId),
      'health',
      input.signal,
      input.window ?? STAT_CONCURRENCY,
    );
    indexes.forEach((index, k) => outcomes.set(index, got[k]!));
  };
  await stat(plan.stat);
  // BODY only where STAT said present: a missing article needs no download to be judged.
  const bodies = plan.body.filter((i) => outcomes.get(i)?.kind === 'present');
  await input.spend?.body(bodies.length, input.signal);
  const bodyResults = await mapLimit(bodies, BODY_CONCURRENCY, (i) =>
    bodyOutcome(client, segs[i]!.messageId, 'health', input.signal, articleSizeOf(segs[i]!)),
  );
  bodies.forEach((i, k) => outcomes.set(i, bodyResults[k]!));
  if (!plan.full && !unreachableIn(outcomes) && badIn(outcomes).length > 0) {
    await stat(Array.from({ length: total }, (_, i) => i).filter((i) => !outcomes.has(i)));
  }
  const unreachable = [...outcomes.values()].filter((o) => o.kind === 'unreachable');
  if (unreachable.length > 0) {
    const first = unreachable[0] as { reason: string };
    return {
      kind: 'inconclusive',
      reason: first.reason,
      unreachable: unreachable.length,
      checked: outcomes.size,
      total,
    };
  }
  const missing = badIn(outcomes).map(([index, o]) => ({
    messageId: segs[index]!.messageId,
    index,
    start: segs[index]!.start,
    end: segs[index]!.end,
    damaged: o.kind === 'damaged',
  }));
  return { kind: 'verdict', status: verdictOf(total, outcomes.size, missing), missing, checked: outcomes.size, total };
}

const unreachableIn = (m: Map<number, ArticleOutcome>) => [...m.values()].some((o) => o.kind === 'unreachable');
const badIn = (m: Map<number, ArticleOutcome>) =>
  [...m.entries()].filter(([, o]) => o.kind === 'missing' || o.kind === 'damaged').sort((a, b) => a[0] - b[0]);
