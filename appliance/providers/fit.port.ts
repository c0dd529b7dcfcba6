import type { FitBand, FitCounts } from './fit.wire.js';

/** One stored record of the fit sampler: a candidate's counts for one post-age band on one UTC day. */
export interface FitDay extends FitCounts {
  day: string;
  candidate: string;
  band: FitBand;
}

/** Seconds players streamed on one UTC day (the cost view's hours watched). */
export interface WatchedDay {
  day: string;
  seconds: number;
}

/**
 * Where the fit sampler's counts and the seconds watched per day are kept (fit.store.ts on LMDB, fit-pg.store.ts on
 * PostgreSQL). Adds are increments: on several nodes each adds its own (the sampler runs on the leader only; every
 * node adds the streams it served).
 */
export interface FitStore {
  samples(): Iterable<FitDay>;
  addSamples(record: FitDay): Promise<unknown>;
  watched(): Iterable<WatchedDay>;
  addWatched(record: WatchedDay): Promise<unknown>;
  /** Drops the days before `day`. */
  dropBefore(day: string): Promise<unknown>;
}

export const FIT_COUNTERS = [
  'current_had',
  'current_missing',
  'candidate_had',
  'candidate_missing',
  'filled',
  'unfilled',
  'errors',
] as const satisfies ReadonlyArray<keyof FitCounts>;

export function noCounts(): FitCounts {
  return Object.fromEntries(FIT_COUNTERS.map((c) => [c, 0])) as unknown as FitCounts;
}
