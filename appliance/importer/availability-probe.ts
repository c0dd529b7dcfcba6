import { mapLimit, statArticle, type ArticleClient } from './article-evidence.js';

export interface ProbeTarget {
  /** The virtual file's name, for the message. */
  name: string;
  messageIds: readonly string[];
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
 * 100% (or a file of at most MIN_PROBE_ARTICLES articles) = every article.
 */
export function sampleIndexes(count: number, percentage: number, random: () => number = Math.random): number[] {
  if (count === 0) return [];
  const want = Math.max(MIN_PROBE_ARTICLES, Math.ceil((count * percentage) / 100));
  if (percentage >= 100 || want >= count) return Array.from({ length: count }, (_, i) => i);
  const picked = new Set<number>([0, count - 1]);
  const step = count / want;
  for (let k = 0; k < want; k++) picked.add(Math.min(count - 1, Math.floor((k + random()) * step)));
  return [...picked].sort((a, b) => a - b);
}

/** STATs a sample of every file's articles on the import lane; returns only the files with missing articles. */
export async function probeAvailability(
  client: ArticleClient,
  targets: readonly ProbeTarget[],
  percentage: number,
  signal: AbortSignal,
  concurrency = 16,
): Promise<ProbeFinding[]> {
  const jobs: { target: number; index: number }[] = [];
  targets.forEach((t, target) => {
    for (const index of sampleIndexes(t.messageIds.length, percentage)) {
      if (!t.known?.has(index)) jobs.push({ target, index });
    }
  });
  const results = await mapLimit(jobs, concurrency, (job) =>
    statArticle(client, targets[job.target]!.messageIds[job.index]!, signal),
  );
  const findings = targets.map(
    (t) => ({ name: t.name, checked: t.known?.size ?? 0, missing: 0, total: t.messageIds.length }) as ProbeFinding,
  );
  jobs.forEach((job, k) => {
    const f = findings[job.target]!;
    f.checked++;
    if (!results[k]) {
      f.missing++;
      f.firstMissing ??= targets[job.target]!.messageIds[job.index];
    }
  });
  return findings.filter((f) => f.missing > 0);
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
