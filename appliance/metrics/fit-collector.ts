import { Gauge, type Registry } from 'prom-client';
import type { CostViewResponse, FitBandReport, FitReportResponse } from '../providers/fit.wire.js';

const MEASURES = ['misses_filled', 'current', 'candidate'] as const;

/** Every candidate's shares with their labels: per post-age band and `all`, per measure. */
function* sharesOf(report: FitReportResponse) {
  for (const c of report.candidates)
    for (const b of [...c.bands, c.all] as FitBandReport[])
      for (const measure of MEASURES)
        yield { labels: { candidate: c.provider, age: b.band, measure }, share: b[measure] };
}

/**
 * The fit report at scrape time (docs/metrics.md): per candidate, post-age band (and `all`) and measure, the
 * sampled share, its 95% interval and the sample size over the last 30 days; the STAT errors apart.
 */
export function defineFit(registry: Registry, report: () => FitReportResponse): void {
  const registers = [registry];
  const labelNames = ['candidate', 'age', 'measure'] as const;
  new Gauge({
    name: 'spool_provider_fit_share',
    help: 'Fit report: share of the primary misses a candidate had (misses_filled), or availability over the comparison sample (current, candidate), last 30 days.',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const s of sharesOf(report())) if (s.share.share !== null) this.set(s.labels, s.share.share);
    },
  });
  new Gauge({
    name: 'spool_provider_fit_interval',
    help: 'Fit report: the 95% Wilson interval of spool_provider_fit_share (bound="low" or "high").',
    labelNames: [...labelNames, 'bound'] as const,
    registers,
    collect() {
      this.reset();
      for (const s of sharesOf(report())) {
        if (!s.share.interval) continue;
        this.set({ ...s.labels, bound: 'low' }, s.share.interval[0]);
        this.set({ ...s.labels, bound: 'high' }, s.share.interval[1]);
      }
    },
  });
  new Gauge({
    name: 'spool_provider_fit_sampled',
    help: 'Fit report: the articles behind spool_provider_fit_share (the sample size), last 30 days.',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const s of sharesOf(report())) this.set(s.labels, s.share.n);
    },
  });
  new Gauge({
    name: 'spool_provider_fit_errors',
    help: 'Fit report: STATs a candidate answered with neither 223 nor 430 (never counted as evidence), last 30 days.',
    labelNames: ['candidate'] as const,
    registers,
    collect() {
      this.reset();
      for (const c of report().candidates) this.set({ candidate: c.provider }, c.errors);
    },
  });
}

/** The cost view at scrape time (docs/metrics.md): per priced account, over the last 30 days. */
export function defineCost(registry: Registry, cost: () => CostViewResponse): void {
  const registers = [registry];
  const perAccount = (name: string, help: string, value: (p: CostViewResponse['providers'][number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['provider'] as const,
      registers,
      collect() {
        this.reset();
        for (const p of cost().providers) {
          const v = value(p);
          if (v !== null) this.set({ provider: p.provider }, v);
        }
      },
    });
  perAccount(
    'spool_provider_cost_per_gb',
    'What a GB fetched from the account cost over the last 30 days.',
    (p) => p.cost_per_gb,
  );
  perAccount(
    'spool_provider_cost_per_hour_watched',
    'The account cost over the last 30 days per hour players watched.',
    (p) => p.cost_per_hour_watched,
  );
  perAccount(
    'spool_provider_block_left_gb',
    'GB left of a block account (less every byte Spool counted from it).',
    (p) => p.block_left_gb,
  );
  perAccount(
    'spool_provider_block_runs_out_timestamp_seconds',
    'When a block account runs out at the last 30 days rate (UTC day, Unix seconds).',
    (p) => (p.runs_out_on === null ? null : Date.parse(`${p.runs_out_on}T00:00:00Z`) / 1000),
  );
  new Gauge({
    // Prometheus names carry base units (seconds), as promtool's lint asks; the console shows hours.
    name: 'spool_watched_seconds',
    help: 'Seconds players streamed over the last 30 days (every node).',
    registers,
    collect() {
      this.set(cost().hours_watched * 3600);
    },
  });
}
