/**
 * The fit report and the cost view (docs/providers.md "Fit report", "Cost view"): what a candidate account would add
 * to the current providers, from STATs sampled on a budget, and what each account costs. Shared with the console.
 */
import type { SampledShare } from './sample-share.js';

export type { SampledShare } from './sample-share.js';

/** The post-age bands of the report: 0-30 days, 1-12 months, 1-3 years, over 3 years. */
export const FIT_BANDS = ['0-30d', '1-12m', '1-3y', '3y+'] as const;
export type FitBand = (typeof FIT_BANDS)[number];

/** The sampler's counts for one candidate, band and UTC day (evidence only; errors apart). */
export interface FitCounts {
  /** Articles the current providers had (the comparison sample: chosen before either answered). */
  current_had: number;
  current_missing: number;
  /** Of the comparison sample, the articles the candidate had / did not have. */
  candidate_had: number;
  candidate_missing: number;
  /** Of every article the current providers missed, the ones the candidate had / did not have. */
  filled: number;
  unfilled: number;
  /** STATs the candidate answered with neither 223 nor 430 (nonsense, 5xx, a timeout): never counted above. */
  errors: number;
}

/** One band of a candidate's report over the window, each share with its 95% interval. */
export interface FitBandReport {
  band: FitBand | 'all';
  /** Share of the current providers' misses the candidate had. */
  misses_filled: SampledShare;
  /** Availability over the comparison sample: the current providers together, and the candidate alone. */
  current: SampledShare;
  candidate: SampledShare;
}

/** A candidate's fit over the last `window_days` UTC days. */
export interface CandidateFit {
  provider: string;
  host: string;
  stats_per_hour: number;
  /** STATs sent to the candidate in the window (evidence and errors). */
  candidate_stats: number;
  /** STATs the candidate answered with nonsense, an error or not at all: reported, never counted. */
  errors: number;
  /** The last such answer, as the sampler saw it (this node, since it started); null when none. */
  last_error: string | null;
  bands: FitBandReport[];
  /** Every band together. */
  all: FitBandReport;
}

/** GET /api/providers/fit. */
export interface FitReportResponse {
  window_days: number;
  /** The share of the comparison sample the candidate is also asked when the current providers had the article. */
  comparison_share: number;
  candidates: CandidateFit[];
}

/** One account's cost over the last `days` days (price from its provider entry). */
export interface ProviderCost {
  provider: string;
  host: string;
  candidate: boolean;
  /** 'month': a monthly price; 'block': bought by the block; null: no price set. */
  pricing: 'month' | 'block' | null;
  /** Bytes fetched from it in the window (download totals). */
  bytes: number;
  /** What the window cost: the monthly price scaled to the window, or the block price per GB times the GB fetched. */
  cost: number | null;
  cost_per_gb: number | null;
  cost_per_hour_watched: number | null;
  /** Block accounts: GB left of the block and the UTC day it runs out at the window's rate (null: no use). */
  block_left_gb: number | null;
  runs_out_on: string | null;
}

/** GET /api/providers/cost. */
export interface CostViewResponse {
  days: number;
  /** Hours players streamed in the window (every node's). */
  hours_watched: number;
  providers: ProviderCost[];
  /** Every priced account together. */
  total: { cost: number | null; bytes: number; cost_per_gb: number | null; cost_per_hour_watched: number | null };
}
