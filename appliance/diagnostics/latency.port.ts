/**
 * Where the providers' round-trip history is kept (docs/diagnostics.md, `provider_latency`): one bucket per provider
 * and hour holding that hour's samples, so a restart keeps the past the check compares with. LMDB implements it
 * (latency.store.ts), and PostgreSQL (latency-pg.store.ts), where every node's samples go into the same buckets.
 */

/** One provider's round-trip samples (ms) taken in one hour. */
export interface LatencyBucket {
  provider: string;
  /** The hour's start, ms since the epoch (the clock's; a multiple of an hour). */
  hour: number;
  samples: number[];
}

/** A bucket takes no more samples than this (12 an hour per node; room for a few nodes). */
export const MAX_SAMPLES_PER_BUCKET = 60;

export interface LatencyStore {
  /** Adds one sample to its provider's bucket of `hour` (created when absent; ignored once the bucket is full). */
  add(provider: string, hour: number, ms: number): Promise<void>;
  /** Every bucket from `hour` on, by provider then hour. */
  since(hour: number): Promise<LatencyBucket[]>;
  /** Removes the buckets of hours before `hour`; how many went. */
  dropBefore(hour: number): Promise<number>;
  /** Writes a whole bucket (`spool migrate`'s copy). */
  put(bucket: LatencyBucket): Promise<void>;
}
