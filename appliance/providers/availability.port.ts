import type { AgeBand, AvailabilityCounts } from './availability.wire.js';

/** One stored record: a provider's evidence counts for one post-age band on one UTC day. */
export interface AvailabilityDay extends AvailabilityCounts {
  day: string;
  provider: string;
  band: AgeBand;
}

/**
 * Where availability counts per day, provider and post-age band are kept (availability.store.ts on LMDB). Each node
 * adds what its own pool saw since its last add, so the days hold every node's sum.
 */
export interface AvailabilityStore {
  /** Every record kept, from the copy the store keeps in memory. */
  all(): Iterable<AvailabilityDay>;
  /** Adds `had` and `missing` to that day's, provider's and band's counts. */
  add(record: AvailabilityDay): Promise<unknown>;
  /** Drops the days before `day`. */
  dropBefore(day: string): Promise<unknown>;
}
