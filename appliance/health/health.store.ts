import type { Database, Key, Store } from '../store/index.js';
import type { HealthRecord } from './health.types.js';
import { HEALTH_STATUSES, type HealthSortKey, type HealthStatus, type SortOrder } from './health.wire.js';

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

const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Health records in LMDB. Records live in `health-records` (key: id); `health-index` holds ordered keys so every
 * question the scheduler and the console ask is a range read:
 *   ['p', path] -> id                    one record per file; also the file_path sort
 *   ['c', createdAt, id]                 the created_at sort
 *   ['s', status, createdAt, id]         per status (filters, the status sort)
 *   ['d', nextCheckAt, id]               files by when their next check is due (the scheduler)
 *   ['m', 0|1, queuedAt, id]             manual checks, priority ones first, then in order
 *   ['r', repairNextAt, id]              automatic repairs waiting for their back-off
 *   ['k', status] -> count               totals in O(1);  ['n'] -> next id
 * Every change is one write transaction over both databases (see `write`).
 */
export class HealthStore {
  private readonly records: Database<HealthRecord, number>;
  private readonly index: Database<number | null, Key>;

  constructor(store: Store) {
    this.records = store.openDb<HealthRecord, number>('health-records');
    this.index = store.openDb<number | null, Key>('health-index');
  }

  get(id: number): HealthRecord | undefined {
    return this.records.get(id);
  }

  byPath(path: string): HealthRecord | undefined {
    const id = this.index.get(['p', path]);
    return typeof id === 'number' ? this.records.get(id) : undefined;
  }

  /**
   * Runs `action` in one write transaction. Writes are lmdb's asynchronous transactions: concurrent ones commit
   * together (one disk sync for many records), which is what lets a pass over 10,000 files keep up.
   * The *In methods below must run inside one.
   */
  write<T>(action: () => T): Promise<T> {
    return this.records.transaction(action);
  }

  upsert(path: string, create: () => Omit<HealthRecord, 'id'>, change: (r: HealthRecord) => HealthRecord) {
    return this.write(() => this.upsertIn(path, create, change));
  }

  update(id: number, change: (r: HealthRecord) => HealthRecord | null): Promise<HealthRecord | undefined> {
    return this.write(() => this.updateIn(id, change));
  }

  remove(id: number): Promise<HealthRecord | undefined> {
    return this.write(() => this.removeIn(id));
  }

  /** Moves a record to a new path (a file moved in the tree); a record already there is replaced. */
  rename(id: number, path: string): Promise<void> {
    return this.write(() => {
      const there = this.byPath(path);
      if (there && there.id !== id) this.removeIn(there.id);
      this.updateIn(id, (r) => ({ ...r, path }));
    });
  }

  /** Inserts a record (id assigned here) or, when the path has one, replaces it through `change`. */
  upsertIn(path: string, create: () => Omit<HealthRecord, 'id'>, change: (r: HealthRecord) => HealthRecord) {
    const existing = this.byPath(path);
    if (existing) return this.replace(existing, change(existing));
    const id = (this.index.get(['n']) ?? 1) as number;
    void this.index.put(['n'], id + 1);
    const record: HealthRecord = { ...create(), id, path };
    void this.records.put(id, record);
    this.addIndexes(record);
    return record;
  }

  /** Changes one record; `change` returns null to leave it alone. Undefined when it is gone. */
  updateIn(id: number, change: (r: HealthRecord) => HealthRecord | null): HealthRecord | undefined {
    const current = this.records.get(id);
    if (!current) return undefined;
    const next = change(current);
    return next ? this.replace(current, next) : current;
  }

  removeIn(id: number): HealthRecord | undefined {
    const current = this.records.get(id);
    if (!current) return undefined;
    this.dropIndexes(current);
    void this.records.remove(id);
    return current;
  }

  counts(): Record<HealthStatus, number> {
    const out = {} as Record<HealthStatus, number>;
    for (const s of HEALTH_STATUSES) out[s] = (this.index.get(['k', s]) ?? 0) as number;
    return out;
  }

  /** Manual checks in the order they run: priority ones first, then oldest. */
  *manualQueue(): Generator<HealthRecord> {
    for (const key of this.index.getKeys({ start: ['m'], end: ['m', 2] })) {
      const r = this.records.get((key as unknown[])[3] as number);
      if (r) yield r;
    }
  }

  /** Records of every file below a directory. */
  *under(dir: string): Generator<HealthRecord> {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    for (const { value } of this.index.getRange({ start: ['p', prefix], end: ['p', `${prefix}\uffff`] })) {
      const r = this.records.get(value as number);
      if (r) yield r;
    }
  }

  manualCount(): number {
    return this.index.getCount({ start: ['m'], end: ['m', 2] });
  }

  /** Records whose scheduled check is due at `now`, earliest first. */
  *due(now: number): Generator<HealthRecord> {
    for (const key of this.index.getKeys({ start: ['d'], end: ['d', now, MAX] })) {
      const r = this.records.get((key as unknown[])[2] as number);
      if (r) yield r;
    }
  }

  /** When the earliest scheduled check or repair falls due (the runner's timer). */
  nextDueAt(): number | undefined {
    let at: number | undefined;
    for (const prefix of ['d', 'r'])
      for (const key of this.index.getKeys({ start: [prefix], end: [prefix, MAX], limit: 1 })) {
        const t = (key as unknown[])[1] as number;
        at = at === undefined ? t : Math.min(at, t);
      }
    return at;
  }

  /** Records whose repair back-off is over. */
  *repairsDue(now: number): Generator<HealthRecord> {
    for (const key of this.index.getKeys({ start: ['r'], end: ['r', now, MAX] })) {
      const r = this.records.get((key as unknown[])[2] as number);
      if (r) yield r;
    }
  }

  /** Every record (start-up reconciliation, cleanup). */
  *all(): Generator<HealthRecord> {
    for (const { value } of this.records.getRange()) yield value;
  }

  list(q: HealthListQuery): { items: HealthRecord[]; total: number } {
    const reverse = q.sortOrder === 'desc';
    const search = q.search?.trim().toLowerCase() || undefined;
    const since = q.since;
    const keys = this.sortedIds(q.sortBy, q.status, reverse);
    const wants = (r: HealthRecord) =>
      (!q.status || r.status === q.status) &&
      (since === undefined || r.createdAt >= since) &&
      (!search || r.path.toLowerCase().includes(search) || (r.sourceNzbPath ?? '').toLowerCase().includes(search));
    const end = q.limit === 0 ? Infinity : q.offset + q.limit;
    const items: HealthRecord[] = [];
    let total = 0;
    for (const id of keys) {
      const r = this.records.get(id);
      if (!r || !wants(r)) continue;
      if (total >= q.offset && total < end) items.push(r);
      total++;
    }
    return { items, total };
  }

  /** Ids in the order of a sort (created_at ties by id; status by its order in HEALTH_STATUSES, then created_at). */
  private *sortedIds(sortBy: HealthSortField, status: HealthStatus | undefined, reverse: boolean): Generator<number> {
    const last = (key: Key) => {
      const parts = key as unknown[];
      return parts[parts.length - 1] as number;
    };
    if (sortBy === 'file_path') {
      const [lo, hi]: Key[] = [
        ['p', ''],
        ['p', '\uffff\uffff'],
      ];
      for (const { value } of this.index.getRange({ start: reverse ? hi : lo, end: reverse ? lo : hi, reverse }))
        yield value as number;
      return;
    }
    const statuses = sortBy === 'status' ? [...HEALTH_STATUSES] : undefined;
    if (status || statuses) {
      const order = status ? [status] : reverse ? statuses!.reverse() : statuses!;
      for (const s of order)
        for (const key of this.index.getKeys({
          start: ['s', s, reverse ? MAX : 0],
          end: ['s', s, reverse ? -1 : MAX],
          reverse,
        }))
          yield last(key);
      return;
    }
    for (const key of this.index.getKeys({ start: ['c', reverse ? MAX : 0], end: ['c', reverse ? -1 : MAX], reverse }))
      yield last(key);
  }

  private replace(current: HealthRecord, next: HealthRecord): HealthRecord {
    this.dropIndexes(current);
    void this.records.put(current.id, { ...next, id: current.id });
    this.addIndexes({ ...next, id: current.id });
    return { ...next, id: current.id };
  }

  private keysOf(r: HealthRecord): Key[] {
    const keys: Key[] = [
      ['p', r.path],
      ['c', r.createdAt, r.id],
      ['s', r.status, r.createdAt, r.id],
    ];
    if (r.nextCheckAt !== null) keys.push(['d', r.nextCheckAt, r.id]);
    if (r.manual) keys.push(['m', r.manual.priority ? 0 : 1, r.manual.at, r.id]);
    if (r.repairNextAt !== null) keys.push(['r', r.repairNextAt, r.id]);
    return keys;
  }

  private addIndexes(r: HealthRecord): void {
    for (const key of this.keysOf(r)) void this.index.put(key, (key as unknown[])[0] === 'p' ? r.id : null);
    this.bump(r.status, 1);
  }

  private dropIndexes(r: HealthRecord): void {
    for (const key of this.keysOf(r)) void this.index.remove(key);
    this.bump(r.status, -1);
  }

  private bump(status: HealthStatus, delta: number): void {
    const key = ['k', status];
    void this.index.put(key, ((this.index.get(key) ?? 0) as number) + delta);
  }
}
