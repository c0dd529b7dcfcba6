/**
 * The scale bench's health figure (bench/scale.bench.ts; issue 30): a health pass measured on the running server,
 * scaled. SCALE_HEALTH_SAMPLE files (default 1,000) spread over the library are checked through the server's own
 * path (POST /api/health/check; the runner, the pool, the pattern provider), at the server's default concurrency
 * and with the hourly budgets raised out of the way, so the figure is the server's speed, not the budget's. The
 * pass over the whole library is that rate times the library, at the bench's article counts and at real ones (the
 * STATs a check sends grow with a file's articles: scaled by the STATs measured). The budget's own bound is
 * arithmetic (health.pass.ts) and is labelled so beside it.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULTS } from '../../appliance/config/index.js';
import { passSettingsOf } from '../../appliance/health/health.domain.js';
import { estimatePass } from '../../appliance/health/health.pass.js';
import type { Figure, ScaleContext } from './scale-figures.js';

const SAMPLE = Number(process.env.SCALE_HEALTH_SAMPLE ?? 1000);

/** The health settings the scale bench's server runs with: on, nothing scheduled, budgets at their maximum. */
export const SCALE_HEALTH_CONFIG = {
  enabled: true,
  check_interval_seconds: 86_400,
  stat_budget_per_hour: 10_000_000,
  body_budget_per_hour: 1_000_000,
};

interface Rec {
  file_path: string;
  status: string;
  last_checked: string | null;
}

async function get<T>(base: string, path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${base}${path}`, init);
  const body = (await res.json()) as { success: boolean; data?: T; error?: { message: string } };
  if (!body.success) throw new Error(`${path}: ${res.status} ${body.error?.message ?? ''}`);
  return body.data as T;
}

/** `n` records spread evenly over the library's. */
async function sampleRecords(base: string, total: number, n: number): Promise<Rec[]> {
  const out: Rec[] = [];
  const pages = Math.ceil(n / 100);
  for (let p = 0; p < pages; p++) {
    const offset = Math.floor((p * Math.max(0, total - 100)) / Math.max(1, pages - 1));
    out.push(...(await get<Rec[]>(base, `/api/health?limit=100&offset=${offset}&sort_by=file_path`)));
  }
  return [...new Map(out.map((r) => [r.file_path, r])).values()].slice(0, n);
}

/** Waits until the record of `path` has a check newer than `before` (bounded). */
async function checked(base: string, path: string, before: string | null, until: number): Promise<Rec> {
  for (;;) {
    const r = await get<Rec>(base, `/api/health/${encodeURIComponent(path)}`);
    if (r.status !== 'checking' && r.last_checked !== before) return r;
    if (Date.now() > until) throw new Error(`health check of ${path} did not finish: ${JSON.stringify(r)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function healthPassFigures(ctx: ScaleContext): Promise<Figure[]> {
  const { srv, library, provider, log, articleFactor } = ctx;
  const base = srv.baseUrl;
  const sample = await sampleRecords(base, library.files, SAMPLE);
  log(`health: checking ${sample.length} files through the server`);
  const stats0 = provider.stat;
  const bodies0 = provider.body;
  const cpu0 = srv.cpuSeconds();
  const t0 = performance.now();
  for (const r of sample)
    await get(base, '/api/health/check', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_path: r.file_path, source_nzb_path: '' }),
    });
  const until = Date.now() + 3_600_000;
  const verdicts = new Map<string, number>();
  for (const r of sample) {
    const done = await checked(base, r.file_path, r.last_checked, until);
    verdicts.set(done.status, (verdicts.get(done.status) ?? 0) + 1);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = srv.cpuSeconds() - cpu0;
  const stats = provider.stat - stats0;
  const bodies = provider.body - bodies0;
  const perHour = (sample.length / seconds) * 3600;
  const statsPerFileReal = stats / sample.length / articleFactor;
  const realPassHours = (library.files * statsPerFileReal) / (stats / seconds) / 3600;
  const budget = estimatePass(
    { tierFiles: [0, 0, library.files], articlesPerFile: library.articles / articleFactor / library.files },
    passSettingsOf(DEFAULTS.health),
  );
  const verdictText = [...verdicts].map(([s, n]) => `${n} ${s}`).join(', ');
  return [
    {
      figure: `health: ${sample.length} files checked through the server (default concurrency, budgets out of the way)`,
      value:
        `${seconds.toFixed(1)} s: ${(sample.length / seconds).toFixed(1)} files/s, ${(stats / seconds).toFixed(0)} ` +
        `STAT/s, ${bodies} BODY, server CPU ${((cpu / sample.length) * 1000).toFixed(1)} ms a file (${verdictText})`,
      target: '',
      pass: null,
    },
    {
      figure: `health: one full pass of ${library.files} files at that speed (measured rate x library)`,
      value: `${(library.files / perHour).toFixed(1)} h at x${articleFactor} articles; ${realPassHours.toFixed(1)} h at real article counts (STATs scaled)`,
      target: `within the old tier's ${DEFAULTS.health.tier_old_interval_hours} h`,
      pass: realPassHours <= DEFAULTS.health.tier_old_interval_hours,
    },
    {
      figure: `health: the default budget's bound on a full pass (arithmetic, health.pass.ts: ${(budget.statsPerPass / 1e6).toFixed(1)} M STATs at ${DEFAULTS.health.stat_budget_per_hour}/h)`,
      value: `${budget.fullPassHours.toFixed(0)} h`,
      target: `within the old tier's ${DEFAULTS.health.tier_old_interval_hours} h`,
      pass: budget.keepsUp,
    },
  ];
}
