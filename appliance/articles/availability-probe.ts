import { getMaxListeners, setMaxListeners } from 'node:events';
import {
  mapLimit,
  outcomeOfError,
  statOutcome,
  type ArticleClient,
  type ArticleOutcome,
  type Lane,
} from './article-evidence.js';

export interface ProbeTarget {
  /** The virtual file's name, for the message. */
  name: string;
  /** How many articles the file has. */
  count: number;
  /** The message-id of article `index`, asked for the sampled ones only (a big file's ids are not held as strings). */
  messageId(index: number): string;
  /** Indexes already known to exist (the first article was fetched whole). */
  known?: ReadonlySet<number>;
}

export interface ProbeFinding {
  name: string;
  checked: number;
  missing: number;
  total: number;
  firstMissing?: string;
}

export interface ProbeOptions {
  /** Share of each file's articles to STAT (100 = every article). */
  percentage: number;
  /** The pool lane: 'import' for the importer's probe, 'health' for checks. */
  lane: Lane;
  signal: AbortSignal;
  /** STATs in flight at once; the pool pipelines them over its connections. */
  concurrency?: number;
}

/**
 * The least a probe checks of a file (all of a smaller file). Drawn one per equal stretch of the file, n articles
 * miss every hole of a file missing a share p of its articles with probability at most (1-p)^n <= e^(-pn): with
 * 500, a release missing 1% escapes at most e^-5 = 0.7% of the time, whether the holes are scattered or one run.
 * Pipelined STATs cost about 0.27 ms each (383 ms per GiB of 750 KB articles), so 500 are ~0.14 s per file.
 */
export const MIN_PROBE_ARTICLES = 500;

/**
 * Which articles of a file to STAT: the first and last (posts that broke off), and max(`percentage`%,
 * MIN_PROBE_ARTICLES) of the rest, one at a random place in each equal stretch of the file, so a run of missing
 * articles and scattered holes are both found and repeated probes do not always ask the same articles.
 * 100% (or a file of at most MIN_PROBE_ARTICLES articles) = every article. `floor` replaces MIN_PROBE_ARTICLES
 * (health checks pass 0: their share is the operator's `health.segment_sample_percentage`, and re-checks draw anew).
 */
export function sampleIndexes(
  count: number,
  percentage: number,
  random: () => number = Math.random,
  floor = MIN_PROBE_ARTICLES,
): number[] {
  if (count === 0) return [];
  const want = Math.max(floor, Math.ceil((count * percentage) / 100));
  if (percentage >= 100 || want >= count) return Array.from({ length: count }, (_, i) => i);
  const picked = new Set<number>([0, count - 1]);
  const step = count / want;
  for (let k = 0; k < want; k++) picked.add(Math.min(count - 1, Math.floor((k + random()) * step)));
  return [...picked].sort((a, b) => a - b);
}

/**
 * STATs the given articles on `lane`, `concurrency` at once; one outcome per id, in order. Never throws for outages.
 * Through the pool's batch when the client has one (one promise for all, STATs leaving several per write: the
 * per-article cost measured in docs/performance.md, "Health"), else one `stat` per article; the outcomes are the same.
 */
export async function statMany(
  client: ArticleClient,
  messageIds: readonly string[],
  lane: Lane,
  signal: AbortSignal,
  concurrency = 16,
): Promise<ArticleOutcome[]> {
  if (client.statBatch) {
    const answers = await client.statBatch(messageIds, { priority: lane, signal, window: concurrency });
    return answers.map((a) => (a === true ? PRESENT : a === false ? MISSING : outcomeOfError(a)));
  }
  allowListeners(signal, concurrency);
  return mapLimit(messageIds, concurrency, (id) => statOutcome(client, id, lane, signal));
}

const PRESENT: ArticleOutcome = Object.freeze({ kind: 'present' });
const MISSING: ArticleOutcome = Object.freeze({ kind: 'missing' });

/**
 * STATs a sample of every file's articles; returns only the files with missing articles. An outage is not an
 * answer: the first `unreachable` outcome is thrown as an Error naming the reason (the caller retries later).
 */
export async function probeAvailability(
  client: ArticleClient,
  targets: readonly ProbeTarget[],
  opts: ProbeOptions,
): Promise<ProbeFinding[]> {
  const jobs: { target: number; index: number }[] = [];
  targets.forEach((t, target) => {
    for (const index of sampleIndexes(t.count, opts.percentage)) {
      if (!t.known?.has(index)) jobs.push({ target, index });
    }
  });
  const ids = jobs.map((job) => targets[job.target]!.messageId(job.index));
  const results = await statMany(client, ids, opts.lane, opts.signal, opts.concurrency);
  const outage = results.find((r) => r.kind === 'unreachable');
  if (outage?.kind === 'unreachable') throw new ProbeOutageError(outage.reason);
  const findings = targets.map(
    (t) => ({ name: t.name, checked: t.known?.size ?? 0, missing: 0, total: t.count }) as ProbeFinding,
  );
  jobs.forEach((job, k) => {
    const f = findings[job.target]!;
    f.checked++;
    if (results[k]!.kind !== 'present') {
      f.missing++;
      f.firstMissing ??= ids[k];
    }
  });
  return findings.filter((f) => f.missing > 0);
}

/** Providers could not answer a probe: no verdict either way. */
export class ProbeOutageError extends Error {
  override readonly name = 'ProbeOutageError';
}

/** "Missing articles: a.mkv: 3 of 40 checked (of 1302) articles missing, e.g. <id>; b.mkv: ..." */
export function describeMissing(findings: readonly ProbeFinding[], sampled: boolean): string {
  const parts = findings.map((f) => {
    const scope = sampled && f.checked < f.total ? `${f.checked} checked (of ${f.total})` : `${f.total}`;
    const example = f.firstMissing ? `, e.g. <${f.firstMissing}>` : '';
    return `${f.name}: ${f.missing} of ${scope} articles missing${example}`;
  });
  return `Missing articles on every provider in ${findings.length} file(s): ${parts.join('; ')}. The release is incomplete; search for another one.`;
}

/** Every request in flight listens on the one signal: let that many (and a margin) without Node's leak warning. */
export function allowListeners(signal: AbortSignal, inFlight: number): void {
  if (getMaxListeners(signal) < inFlight + 16) setMaxListeners(inFlight + 16, signal);
}
