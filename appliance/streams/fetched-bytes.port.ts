import type { FetchedBytesDay } from './streams.wire.js';

/**
 * Where the bytes the pool fetched per class per day are kept (fetched-bytes.store.ts on LMDB,
 * fetched-bytes-pg.store.ts on PostgreSQL). Each node adds what its own pool fetched since its last add, so on
 * several nodes the days hold every node's sum (pool-traffic.ts shows them with this node's counts not added yet).
 */
export interface FetchedBytesStore {
  /** Every day kept, from the copy the store keeps in memory (every node's adds; this node's at once). */
  all(): Iterable<FetchedBytesDay>;
  /** Adds `day.bytes` to that day's counts. */
  add(day: FetchedBytesDay): Promise<unknown>;
  /** Drops the days before `day`. */
  dropBefore(day: string): Promise<unknown>;
}
