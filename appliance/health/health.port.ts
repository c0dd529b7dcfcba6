import type { HealthVerdicts } from '../vfs/types.js';
import type { HealthRecord } from './health.types.js';
import type { HealthSortKey, HealthStatus, SortOrder } from './health.wire.js';

export type HealthSortField = HealthSortKey;

export interface HealthListQuery {
  limit: number;
  offset: number;
  status?: HealthStatus;
  /** Records created at or after this time (ms). */
  since?: number;
  /** Case-insensitive substring of the file path or the source NZB path. */
  search?: string;
  sortBy: HealthSortField;
  sortOrder: SortOrder;
}

/** A new record's fields (the store assigns the id). */
export type NewHealthRecord = Omit<HealthRecord, 'id'>;

/**
 * One write of a unit of work. `create` and `change` are pure functions of what is stored when the write runs
 * (inside the transaction), so any store can apply them atomically: read, change, write.
 */
export type HealthWrite =
  /** Inserts a record for `path` (from `create`) or replaces the one there through `change`. */
  | { op: 'upsert'; path: string; create: () => NewHealthRecord; change: (r: HealthRecord) => HealthRecord }
  /** Changes one record; `change` returns null to leave it alone. */
  | { op: 'update'; id: number; change: (r: HealthRecord) => HealthRecord | null }
  | { op: 'remove'; id: number }
  /** Moves a record to a new path (its file moved); a record already there is replaced. */
  | { op: 'rename'; id: number; path: string };

/**
 * Where the health domain keeps all of a file's health (docs/health.md, "One store"): the records, the verdicts,
 * the missing articles and the reads' evidence. Asynchronous throughout, so a network store can implement it;
 * only `verdicts`, which the VFS asks on its hot path (listings, FUSE getattr, reads), answers synchronously from
 * memory. health.store.ts implements it on LMDB, health-pg.store.ts on PostgreSQL.
 */
export interface HealthStore {
  /** The VFS's port: the corrupted filter of listings and the articles known unavailable, answered from memory. */
  readonly verdicts: HealthVerdicts;
  get(id: number): Promise<HealthRecord | undefined>;
  byPath(path: string): Promise<HealthRecord | undefined>;
  /** Records of every file below a directory. */
  under(dir: string): Promise<HealthRecord[]>;
  /** Every record (cleanup). */
  all(): Promise<HealthRecord[]>;
  /** The records in one status (start: checks a stop cut short are 'checking'); read through the status index. */
  withStatus(status: HealthStatus): Promise<HealthRecord[]>;
  /** The tree's write count (VfsService.treeWrites) when health last stopped in step with the tree; undefined: never, or running. */
  inStepAt(): Promise<number | undefined>;
  setInStepAt(treeWrites: number | undefined): Promise<void>;
  list(q: HealthListQuery): Promise<{ items: HealthRecord[]; total: number }>;
  counts(): Promise<Record<HealthStatus, number>>;
  manualCount(): Promise<number>;
  /** The first `limit` manual checks in the order they run: priority ones first, then oldest. */
  manualQueue(limit: number): Promise<HealthRecord[]>;
  /** The first `limit` records whose scheduled check is due at `now`: the new tier first, each earliest first. */
  due(now: number, limit: number): Promise<HealthRecord[]>;
  /** How many records' scheduled check is due at `now` (the metrics' backlog; counted in the index, none read). */
  dueCount(now: number): Promise<number>;
  /** How many records got a verdict at or after `since` (the share verified in the last N days). */
  verifiedSince(since: number): Promise<number>;
  /** How many records' files entered the tree in [from, to) (files per age tier). */
  filesCreatedBetween(from: number, to: number): Promise<number>;
  /** The files whose article count a check learned, and their articles in all (the full-pass estimate). */
  articleTotals(): Promise<{ files: number; articles: number }>;
  /** Records whose repair back-off is over at `now`. */
  repairsDue(now: number): Promise<HealthRecord[]>;
  /** When the earliest scheduled check or repair falls due (the runner's timer). */
  nextDueAt(): Promise<number | undefined>;
  /**
   * The unit of work: applies `writes` in order in one transaction, all or none. Resolves to each write's record
   * after it (undefined when an update or remove found none; a removed record as it was).
   */
  commit(writes: readonly HealthWrite[]): Promise<(HealthRecord | undefined)[]>;
  upsert(path: string, create: () => NewHealthRecord, change: (r: HealthRecord) => HealthRecord): Promise<HealthRecord>;
  update(id: number, change: (r: HealthRecord) => HealthRecord | null): Promise<HealthRecord | undefined>;
  remove(id: number): Promise<HealthRecord | undefined>;
  rename(id: number, path: string): Promise<void>;
}
