import type { FetchedBytesDay } from './streams.wire.js';

/** Where the bytes the pool fetched per class per day are kept (fetched-bytes.store.ts on LMDB). */
export interface FetchedBytesStore {
  /** Every day kept. */
  all(): Iterable<FetchedBytesDay>;
  /** Replaces one day's record (the caller holds the sums). */
  put(day: FetchedBytesDay): Promise<unknown>;
  /** Drops the days before `day`. */
  dropBefore(day: string): Promise<unknown>;
}
