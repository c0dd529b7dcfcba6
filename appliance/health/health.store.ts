import type { EventSink, SpoolEvents } from '../events/index.js';
import { migrate, type Database, type Key, type Store } from '../store/index.js';
import { healthMigrations } from './health.migrations.js';
import type { HealthListQuery, HealthSortField, HealthStore, HealthWrite } from './health.port.js';
import type { HealthRecord } from './health.types.js';
import { announceChanges, HealthStoreBase } from './health-store.base.js';
import { hasBadNews, VerdictIndex } from './health.verdicts.js';
import { HEALTH_STATUSES, type HealthStatus } from './health.wire.js';

/**
 * Brings the health databases up to date (health.migrations.ts), then opens the store on them and loads the
 * verdicts the VFS asks for into memory (the records the 'b' index names: the few with bad news, not every one). Every record written is announced
 * on `events` (health.record.changed).
 */
export function openHealthStore(store: Store, events?: EventSink<SpoolEvents>): HealthStore {
  migrate(
    store,
    'health',
    healthMigrations(
      (s, writes) => new LmdbHealthStore(s).applyNow(writes),
      (s) => new LmdbHealthStore(s).reindexNow(),
      (s) => new LmdbHealthStore(s).indexBadNow(),
    ),
  );
  const health = new LmdbHealthStore(store, events);
  health.loadVerdicts();
  return health;
}

const MAX = Number.MAX_SAFE_INTEGER;
/** The due index's tiers, in the order due files are picked (health.schedule.ts). */
const TIERS = [0, 1, 2] as const;

/**
 * The health store on LMDB (the port is health.port.ts). Reads are synchronous inside (memory-mapped) and answered
 * as settled promises; writes are lmdb's asynchronous transactions, so concurrent ones commit together (one disk
 * sync for many records), which is what lets a pass over 10,000 files keep up. Health records in LMDB. Records live in `health-records` (key: id); `health-index` holds ordered keys so every
 * question the scheduler and the console ask is a range read:
 *   ['p', path] -> id                    one record per file; also the file_path sort
 *   ['c', createdAt, id]                 the created_at sort
 *   ['s', status, createdAt, id]         per status (filters, the status sort)
 *   ['d', tier, nextCheckAt, id]         files by age tier (new first), then when their next check is due
 *   ['v', lastCheckedAt, id]             files by when their last verdict came (the share verified in N days)
 *   ['f', fileCreatedAt, id]             files by age (how many fall in each tier)
 *   ['m', 0|1, queuedAt, id]             manual checks, priority ones first, then in order
 *   ['r', repairNextAt, id]              automatic repairs waiting for their back-off
 *   ['b', id]                            records with bad news for the VFS (corrupted, articles unavailable)
 *   ['g'] -> tree writes                 the tree's write count when health last stopped in step with it
 *   ['k', status] -> count               totals in O(1);  ['n'] -> next id
 *   ['t', 'articles'|'measured'] -> n    articles of the files whose count a check learned, and those files
 * Every commit is one write transaction over both databases; after it the in-memory verdicts follow (`commit`).
 */
export class LmdbHealthStore extends HealthStoreBase implements HealthStore {
  private readonly records: Database<HealthRecord, number>;
  private readonly index: Database<number | null, Key>;
  readonly verdicts = new VerdictIndex();
  /** Records written by the transaction running now, in order: [before, after]. */
  private changes: [HealthRecord | undefined, HealthRecord | undefined][] = [];

  constructor(
    store: Store,
    private readonly events?: EventSink<SpoolEvents>,
  ) {
    super();
    this.records = store.openDb<HealthRecord, number>('health-records');
    this.index = store.openDb<number | null, Key>('health-index');
  }

  /** The VFS's verdicts into memory: only the records the 'b' index names are read. */
  loadVerdicts(): void {
    for (const r of this.byIds(this.index.getKeys({ start: ['b'], end: ['b', MAX] }).map((k) => idAt(k, 1))))
      this.verdicts.changed(undefined, r);
  }

  async withStatus(status: HealthStatus): Promise<HealthRecord[]> {
    return this.byIds(this.index.getKeys({ start: ['s', status], end: ['s', status, MAX] }).map((k) => idAt(k, 3)));
  }

  async inStepAt(): Promise<number | undefined> {
    return (this.index.get(['g']) ?? undefined) as number | undefined;
  }

  /** Written at once in its own transaction (a stop's last write, with nothing left queued behind it). */
  async setInStepAt(treeWrites: number | undefined): Promise<void> {
    if (treeWrites === undefined) this.index.removeSync(['g']);
    else this.index.putSync(['g'], treeWrites);
  }

  /** Applies writes in the write transaction running now (a migration's); the in-memory verdicts are not told. */
  applyNow(writes: readonly HealthWrite[]): void {
    for (const w of writes) this.apply(w);
    this.changes = [];
  }

  async get(id: number): Promise<HealthRecord | undefined> {
    return this.records.get(id);
  }

  async byPath(path: string): Promise<HealthRecord | undefined> {
    return this.recordAt(path);
  }

  async under(dir: string): Promise<HealthRecord[]> {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    const ids = this.index.getRange({ start: ['p', prefix], end: ['p', `${prefix}\uffff`] }).map((e) => e.value);
    return this.byIds(ids);
  }

  async all(): Promise<HealthRecord[]> {
    return [...this.records.getRange().map((e) => e.value)];
  }

  async counts(): Promise<Record<HealthStatus, number>> {
    const out = {} as Record<HealthStatus, number>;
    for (const s of HEALTH_STATUSES) out[s] = (this.index.get(['k', s]) ?? 0) as number;
    return out;
  }

  async manualCount(): Promise<number> {
    return this.index.getCount({ start: ['m'], end: ['m', 2] });
  }

  async manualQueue(limit: number): Promise<HealthRecord[]> {
    return this.byIds(this.index.getKeys({ start: ['m'], end: ['m', 2], limit }).map((k) => idAt(k, 3)));
  }

  async due(now: number, limit: number): Promise<HealthRecord[]> {
    const ids: number[] = [];
    for (const tier of TIERS) {
      const left = limit - ids.length;
      if (left <= 0) break;
      for (const k of this.index.getKeys({ start: ['d', tier], end: ['d', tier, now, MAX], limit: left }))
        ids.push(idAt(k, 3));
    }
    return this.byIds(ids);
  }

  async dueCount(now: number): Promise<number> {
    let n = 0;
    for (const tier of TIERS) n += this.index.getCount({ start: ['d', tier], end: ['d', tier, now, MAX] });
    return n;
  }

  async verifiedSince(since: number): Promise<number> {
    return this.index.getCount({ start: ['v', since], end: ['v', MAX] });
  }

  async filesCreatedBetween(from: number, to: number): Promise<number> {
    return this.index.getCount({ start: ['f', from], end: ['f', to] });
  }

  async articleTotals(): Promise<{ files: number; articles: number }> {
    const get = (k: string) => (this.index.get(['t', k]) ?? 0) as number;
    return { files: get('measured'), articles: get('articles') };
  }

  async repairsDue(now: number): Promise<HealthRecord[]> {
    return this.byIds(this.index.getKeys({ start: ['r'], end: ['r', now, MAX] }).map((k) => idAt(k, 2)));
  }

  async nextDueAt(): Promise<number | undefined> {
    let at: number | undefined;
    const ranges: [Key, Key, number][] = [
      ...TIERS.map((tier): [Key, Key, number] => [['d', tier], ['d', tier, MAX], 2]),
      [['r'], ['r', MAX], 1],
    ];
    for (const [start, end, pos] of ranges)
      for (const key of this.index.getKeys({ start, end, limit: 1 })) {
        const t = (key as unknown[])[pos] as number;
        at = at === undefined ? t : Math.min(at, t);
      }
    return at;
  }

  /**
   * The one write path: every write of the unit in one transaction (a throw rolls all back), then the in-memory
   * verdicts take the records as committed and each written record is announced (health.record.changed).
   */
  async commit(writes: readonly HealthWrite[]): Promise<(HealthRecord | undefined)[]> {
    // The writes run in a child transaction of lmdb's batched one, so a throw aborts this unit only.
    const { results, changes } = await this.records.transaction(() =>
      this.records.transactionSync(() => {
        this.changes = [];
        try {
          return { results: writes.map((w) => this.apply(w)), changes: this.changes };
        } finally {
          this.changes = [];
        }
      }),
    );
    for (const [before, after] of changes) this.verdicts.changed(before, after);
    announceChanges(this.events, changes);
    return results;
  }

  async list(q: HealthListQuery): Promise<{ items: HealthRecord[]; total: number }> {
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

  private recordAt(path: string): HealthRecord | undefined {
    const id = this.index.get(['p', path]);
    return typeof id === 'number' ? this.records.get(id) : undefined;
  }

  private byIds(ids: Iterable<number | null>): HealthRecord[] {
    const out: HealthRecord[] = [];
    for (const id of ids) {
      const r = typeof id === 'number' ? this.records.get(id) : undefined;
      if (r) out.push(r);
    }
    return out;
  }

  /**
   * Puts records as they are, with their ids, and the next id (the copy from PostgreSQL into an empty store, inside
   * its write transaction); the indexes and totals follow as for any write. The in-memory verdicts are not told.
   */
  insertCopiedNow(records: readonly HealthRecord[], nextId: number, inStepAt: number | undefined): void {
    for (const r of records) {
      void this.records.put(r.id, r);
      this.addIndexes(r);
    }
    void this.index.put(['n'], nextId);
    if (inStepAt !== undefined) void this.index.put(['g'], inStepAt);
  }

  /** One write inside the transaction of `commit`. */
  private apply(w: HealthWrite): HealthRecord | undefined {
    switch (w.op) {
      case 'upsert': {
        const existing = this.recordAt(w.path);
        if (existing) return this.replace(existing, w.change(existing));
        const id = (this.index.get(['n']) ?? 1) as number;
        void this.index.put(['n'], id + 1);
        const record: HealthRecord = { ...w.create(), id, path: w.path };
        void this.records.put(id, record);
        this.addIndexes(record);
        this.changes.push([undefined, record]);
        return record;
      }
      case 'update': {
        const current = this.records.get(w.id);
        if (!current) return undefined;
        const next = w.change(current);
        return next ? this.replace(current, next) : current;
      }
      case 'remove': {
        const current = this.records.get(w.id);
        if (!current) return undefined;
        this.dropIndexes(current);
        void this.records.remove(w.id);
        this.changes.push([current, undefined]);
        return current;
      }
      case 'rename': {
        const there = this.recordAt(w.path);
        if (there && there.id !== w.id) this.apply({ op: 'remove', id: there.id });
        return this.apply({ op: 'update', id: w.id, change: (r) => ({ ...r, path: w.path }) });
      }
    }
  }

  private replace(current: HealthRecord, next: HealthRecord): HealthRecord {
    const record = { ...next, id: current.id };
    this.dropIndexes(current);
    void this.records.put(current.id, record);
    this.addIndexes(record);
    this.changes.push([current, record]);
    return record;
  }

  private keysOf(r: HealthRecord): Key[] {
    const keys: Key[] = [
      ['p', r.path],
      ['c', r.createdAt, r.id],
      ['s', r.status, r.createdAt, r.id],
    ];
    if (r.nextCheckAt !== null) keys.push(['d', r.tier ?? 0, r.nextCheckAt, r.id]);
    if (r.lastCheckedAt !== null) keys.push(['v', r.lastCheckedAt, r.id]);
    keys.push(['f', r.fileCreatedAt, r.id]);
    if (r.manual) keys.push(['m', r.manual.priority ? 0 : 1, r.manual.at, r.id]);
    if (r.repairNextAt !== null) keys.push(['r', r.repairNextAt, r.id]);
    if (hasBadNews(r)) keys.push(['b', r.id]);
    return keys;
  }

  private addIndexes(r: HealthRecord): void {
    for (const key of this.keysOf(r)) void this.index.put(key, (key as unknown[])[0] === 'p' ? r.id : null);
    this.bump(r, 1);
  }

  private dropIndexes(r: HealthRecord): void {
    for (const key of this.keysOf(r)) void this.index.remove(key);
    this.bump(r, -1);
  }

  private bump(r: HealthRecord, sign: 1 | -1): void {
    const add = (key: Key, delta: number) => void this.index.put(key, ((this.index.get(key) ?? 0) as number) + delta);
    add(['k', r.status], sign);
    if (r.totalSegments > 0) {
      add(['t', 'articles'], sign * r.totalSegments);
      add(['t', 'measured'], sign);
    }
  }

  /**
   * Health step 2 (inside the migration's transaction): the due index keyed by tier, and the indexes and totals
   * the schedule's figures read ('v', 'f', 't'), for records written before them.
   */
  reindexNow(): void {
    for (const { value: r } of this.records.getRange()) {
      if (r.nextCheckAt !== null) void this.index.remove(['d', r.nextCheckAt, r.id]);
      for (const key of this.keysOf(r))
        if (['d', 'v', 'f'].includes((key as unknown[])[0] as string)) void this.index.put(key, null);
      if (r.totalSegments > 0) {
        const add = (k: string, d: number) =>
          void this.index.put(['t', k], ((this.index.get(['t', k]) ?? 0) as number) + d);
        add('articles', r.totalSegments);
        add('measured', 1);
      }
    }
  }

  /** Health step 3 (inside the migration's transaction): the 'b' index of the records with bad news. */
  indexBadNow(): void {
    for (const { value: r } of this.records.getRange()) if (hasBadNews(r)) void this.index.put(['b', r.id], null);
  }
}

/** The record id at position `at` of an index key. */
function idAt(key: Key, at: number): number {
  return (key as unknown[])[at] as number;
}
