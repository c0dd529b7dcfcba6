import type { FitDay } from './fit.port.js';
import { FIT_BANDS, type CandidateFit, type FitBand, type FitBandReport, type FitCounts } from './fit.wire.js';
import { noCounts } from './fit.port.js';
import { sampledShare } from './sample-share.js';

/** A candidate as the report names it. */
export interface CandidateInfo {
  id: string;
  host: string;
  statsPerHour: number;
  lastError: string | null;
}

/**
 * A candidate's fit from the sampler's days on or after `since` (docs/providers.md "Fit report"): per post-age band
 * and over all of them, the share of the current providers' misses it had and both availabilities over the
 * comparison sample, each with its 95% Wilson interval; errors apart.
 */
export function candidateFit(c: CandidateInfo, days: readonly FitDay[], since: string): CandidateFit {
  const byBand = new Map<FitBand, FitCounts>(FIT_BANDS.map((b) => [b, noCounts()]));
  const all = noCounts();
  for (const d of days) {
    if (d.candidate !== c.id || d.day < since) continue;
    const cell = byBand.get(d.band);
    if (!cell) continue;
    for (const k of Object.keys(all) as Array<keyof FitCounts>) {
      cell[k] += d[k];
      all[k] += d[k];
    }
  }
  const candidateStats = all.filled + all.unfilled + all.candidate_missing + all.candidate_had + all.errors;
  return {
    provider: c.id,
    host: c.host,
    stats_per_hour: c.statsPerHour,
    // A comparison article the current providers missed counts in filled/unfilled and candidate_*: one STAT.
    candidate_stats: candidateStats - all.current_missing,
    errors: all.errors,
    last_error: c.lastError,
    bands: FIT_BANDS.map((b) => bandReport(b, byBand.get(b)!)),
    all: bandReport('all', all),
  };
}

function bandReport(band: FitBand | 'all', c: FitCounts): FitBandReport {
  return {
    band,
    misses_filled: sampledShare(c.filled, c.filled + c.unfilled),
    current: sampledShare(c.current_had, c.current_had + c.current_missing),
    candidate: sampledShare(c.candidate_had, c.candidate_had + c.candidate_missing),
  };
}
