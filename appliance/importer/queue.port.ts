import type { QueueListQuery, QueueRecord } from './queue.types.js';
import type { QueueStatus } from './queue.wire.js';

/** An NZB as the queue keeps it: brotli-compressed (nzb-pack.ts) and its sha256 for the scan's "seen" check. */
export interface PackedNzb {
  packed: Buffer;
  hash: string;
}

/** One page of items and how many match in all. */
export interface QueuePage {
  items: QueueRecord[];
  total: number;
}

/**
 * The queue's storage port: what QueueService needs, with no storage types in it. LMDB implements it today
 * (queue-lmdb.store.ts); a network store (PostgreSQL, several nodes sharing one library) can implement it later,
 * so every method returns a Promise: none of them is on the streaming hot path (docs/architecture.md, "Storage
 * ports"). Each method is atomic on its own; the operations that must be several writes at once (an item with its
 * NZB, a claim, a job directory reservation) are one method each, so no caller ever holds a transaction.
 *
 * Callbacks (`change`, `allow`, `choose`) run inside the store's transaction: they are pure and synchronous, and a
 * store may run them again if it retries the transaction.
 */
export interface QueueStore {
  get(id: number): Promise<QueueRecord | undefined>;
  /** The items of these ids that still exist, in the same order. */
  getMany(ids: readonly number[]): Promise<QueueRecord[]>;
  /** Adds an item (its id is assigned here, never reused) and its NZB in one transaction. */
  insert(draft: Omit<QueueRecord, 'id'>, nzb: PackedNzb): Promise<QueueRecord>;
  /**
   * Reads, changes and writes one item atomically. `change` returns the new record, or null to leave it alone.
   * Resolves to the stored record, or undefined if the item is gone.
   */
  update(id: number, change: (current: QueueRecord) => QueueRecord | null): Promise<QueueRecord | undefined>;
  /** Deletes the item with its NZB and its job directory hold if `allow` agrees; resolves to what was removed. */
  remove(id: number, allow: (current: QueueRecord) => boolean): Promise<QueueRecord | undefined>;
  /** `remove` of many items in one transaction (keep batches short); resolves to the items removed. */
  removeMany(ids: readonly number[], allow: (current: QueueRecord) => boolean): Promise<QueueRecord[]>;
  /**
   * Takes the next runnable item (a retry whose back-off is over at `now`, else the first pending one by priority)
   * and writes `claim(item)` in the same transaction, so two workers, or two nodes, never take the same item.
   */
  claimNext(now: number, claim: (item: QueueRecord) => QueueRecord): Promise<QueueRecord | undefined>;
  /**
   * Reserves a job directory for item `id` in one transaction: `choose` gets the item and who holds a path
   * (`holderOf`, undefined = nobody), returns the path (or throws), and the store records `id` as its holder
   * (releasing the one it held before) and sets the item's targetPath. Two reservations of the same name never get
   * the same path. A network store answers `holderOf` from the holds it read under the wanted path's parent.
   */
  reserveJobDir(
    id: number,
    choose: (item: QueueRecord, holderOf: (path: string) => number | undefined) => string,
  ): Promise<string>;
  counts(): Promise<Record<QueueStatus, number>>;
  /** Ids of every item in a status last changed before `updatedBefore`, oldest activity first. */
  idsWithStatus(status: QueueStatus, updatedBefore?: number): Promise<number[]>;
  /** When the earliest retrying item is due (for the runner's timer). */
  nextRetryAt(): Promise<number | undefined>;
  /** The console's list: newest activity first, by status, since a time, or by search words. */
  list(q: QueueListQuery): Promise<QueuePage>;
  /** Completed and failed items newest first, optionally of one category ('*' = items without one). */
  history(q: { category?: string; offset: number; limit: number }): Promise<QueuePage>;
  /** The stored NZB, still compressed (the importer decompresses while parsing). */
  nzb(id: number): Promise<Buffer | undefined>;
  /** The queue id an NZB with this hash was first queued under, if any (kept after the item is cleared). */
  seenAs(hash: string): Promise<number | undefined>;
}
