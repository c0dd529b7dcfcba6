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
 * Which articles of a file to STAT: the last one (posts that broke off), and `percentage`% of the rest spread
 * evenly with a random start so repeated probes do not always ask the same articles. 100% = every article.
 */
export function sampleIndexes(count: number, percentage: number, random: () => number = Math.random): number[] {
  if (count === 0) return [];
  if (percentage >= 100) return Array.from({ length: count }, (_, i) => i);
  const picked = new Set<number>([0, count - 1]);
  const want = Math.max(1, Math.ceil((count * percentage) / 100));
  const step = count / want;
  const offset = random() * step;
  for (let k = 0; k < want; k++) picked.add(Math.min(count - 1, Math.floor(offset + k * step)));
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
