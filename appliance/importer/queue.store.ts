import type { Database, Key, Store } from '../store/index.js';
import type { QueueListQuery, QueueRecord } from './queue.types.js';
import { QUEUE_STATUSES, type QueueStatus } from './queue.wire.js';

/**
 * The queue in LMDB. Items live in `queue-items` (key: id); `queue-index` holds ordered composite keys so every
 * list the console asks for is a range read, never a scan of the queue:
 *   ['u', updatedAt, id]           all items, newest activity last (read in reverse)
 *   ['s', status, updatedAt, id]   per status
 *   ['w', word, id]                words of the name and category (search is word-prefix)
 *   ['p', 2 - priority, id]        pending items in the order they run (no -0: it does not sort as 0), not paused
 *   ['t', nextAttemptAt, id]       retrying items by when they are due
 *   ['h', finishedAt, id]          history (completed and failed), read newest first by the SABnzbd API
 *   ['hc', category, finishedAt, id]  the same per category ('*' = none), so `limit=60&category=tv` is one range
 *   ['c', status] -> count         so totals are O(1)
 *   ['k', category] -> count       history items per category
 *   ['j', targetPath] -> id        the job directory an item reserved (no two items ever hold the same one)
 *   ['n'] -> next id
 * Every change is one write transaction over both databases, so an index never disagrees with its item.
 * Synchronous, as LMDB is; the queue's port (queue.port.ts) is LmdbQueueStore (queue-lmdb.store.ts) over this.
 */
/** Upper bound for numeric key parts (ordered-binary's encoding of Infinity is not one to lean on). */
const MAX = Number.MAX_SAFE_INTEGER;

export class QueueTables {
  private readonly items: Database<QueueRecord, number>;
  private readonly index: Database<number | null, Key>;

  constructor(private readonly store: Store) {
    this.items = store.openDb<QueueRecord, number>('queue-items');
    this.index = store.openDb<number | null, Key>('queue-index');
  }

  get(id: number): QueueRecord | undefined {
    return this.items.get(id);
  }

  /** Adds an item (its id is assigned here). Runs in its own transaction unless one is open. */
  insert(draft: Omit<QueueRecord, 'id'>): QueueRecord {
    return this.store.transaction(() => {
      const id = (this.index.get(['n']) ?? 1) as number;
      void this.index.put(['n'], id + 1);
      const record: QueueRecord = { ...draft, id };
      void this.items.put(id, record);
      this.addIndexes(record);
      return record;
    });
  }

  /**
   * Puts items as they are, with their ids, and the next id (the copy from PostgreSQL into an empty store); the
   * indexes and counts follow as for any write. Must run inside a transaction.
   */
  insertCopied(records: readonly QueueRecord[], nextId: number): void {
    for (const r of records) {
      void this.items.put(r.id, r);
      this.addIndexes(r);
    }
    void this.index.put(['n'], Math.max(nextId, (this.index.get(['n']) ?? 1) as number));
  }

  /**
   * Reads, changes and writes one item atomically. `change` returns the new record, or null to leave it alone
   * (e.g. the item is in a status the caller may not touch). Returns the stored record, or undefined if gone.
   */
  update(id: number, change: (current: QueueRecord) => QueueRecord | null): QueueRecord | undefined {
    return this.store.transaction(() => {
      const current = this.items.get(id);
      if (!current) return undefined;
      const next = change(current);
      if (!next) return current;
      this.dropIndexes(current);
      void this.items.put(id, next);
      this.addIndexes(next);
      return next;
    });
  }

  /** Deletes the item if `allow` agrees; returns the removed record. */
  remove(id: number, allow: (current: QueueRecord) => boolean = () => true): QueueRecord | undefined {
    return this.store.transaction(() => {
      const current = this.items.get(id);
      if (!current || !allow(current)) return undefined;
      this.dropIndexes(current);
      if (current.targetPath !== null && this.jobDirOwner(current.targetPath) === id)
        void this.index.remove(['j', current.targetPath]);
      void this.items.remove(id);
      return current;
    });
  }

  /** The item holding a job directory, if a live item does. Call inside a transaction to act on the answer. */
  jobDirOwner(targetPath: string): number | undefined {
    const id = this.index.get(['j', targetPath]) as number | undefined;
    return id !== undefined && this.items.get(id) ? id : undefined;
  }

  /** Records `id` as the holder of a job directory, releasing the one it held before. Inside a transaction. */
  holdJobDir(id: number, targetPath: string): void {
    const current = this.items.get(id);
    if (current?.targetPath && current.targetPath !== targetPath && this.jobDirOwner(current.targetPath) === id)
      void this.index.remove(['j', current.targetPath]);
    void this.index.put(['j', targetPath], id);
  }

  counts(): Record<QueueStatus, number> {
    const out = {} as Record<QueueStatus, number>;
    for (const status of QUEUE_STATUSES) out[status] = (this.index.get(['c', status]) ?? 0) as number;
    return out;
  }

  /** Ids of every item in a status, oldest activity first (recovery at start, clear completed/failed). */
  idsWithStatus(status: QueueStatus, updatedBefore = Infinity): number[] {
    const end = updatedBefore === Infinity ? ['s', status, MAX] : ['s', status, updatedBefore];
    return [...this.index.getKeys({ start: ['s', status], end })].map((k) => (k as unknown[])[3] as number);
  }

  /** The item the runner should take next: a retry whose back-off is over, else the first pending one. */
  nextRunnable(now: number): QueueRecord | undefined {
    for (const key of this.index.getKeys({ start: ['t'], end: ['t', now, MAX], limit: 1 })) {
      return this.items.get((key as unknown[])[2] as number);
    }
    for (const key of this.index.getKeys({ start: ['p'], end: ['p', MAX], limit: 1 })) {
      return this.items.get((key as unknown[])[2] as number);
    }
    return undefined;
  }

  /** When the earliest retrying item is due (for the runner's timer). */
  nextRetryAt(): number | undefined {
    for (const key of this.index.getKeys({ start: ['t'], end: ['t', MAX], limit: 1 })) {
      return (key as unknown[])[1] as number;
    }
    return undefined;
  }

  list(q: QueueListQuery): { items: QueueRecord[]; total: number } {
    if (q.search && searchWords(q.search).length > 0) return this.search(q);
    const since = Math.max(0, q.since ?? 0);
    const prefix: Key[] = q.status ? ['s', q.status] : ['u'];
    // Reverse range: from the newest key of the prefix down to `since`.
    const range = { start: [...prefix, MAX] as Key, end: [...prefix, since] as Key, reverse: true };
    const total =
      q.since === undefined
        ? q.status
          ? this.counts()[q.status]
          : Object.values(this.counts()).reduce((a, b) => a + b, 0)
        : // a copy: lmdb's getCount marks the options object it is given as count-only
          this.index.getCount({ ...range });
    const ids: number[] = [];
    // limit 0 = all; lmdb treats an explicit `limit: undefined` as broken, so leave the key out.
    const paging = q.limit === 0 ? { offset: q.offset } : { offset: q.offset, limit: q.limit };
    for (const key of this.index.getKeys({ ...range, ...paging })) {
      const parts = key as unknown[];
      ids.push(parts[parts.length - 1] as number);
    }
    const items = ids.map((id) => this.items.get(id)).filter((r): r is QueueRecord => r !== undefined);
    return { items, total };
  }

  /**
   * History (completed, failed and repairing items) newest first, optionally of one category ('*' = items without one):
   * one reverse range read of `limit` keys (0 = all) after `offset`, whatever the size of the history.
   */
  history(q: { category?: string; offset: number; limit: number }): { items: QueueRecord[]; total: number } {
    const prefix: Key[] = q.category === undefined ? ['h'] : ['hc', q.category];
    const total =
      q.category === undefined
        ? (() => {
            const c = this.counts();
            return c.completed + c.failed + c.repairing;
          })()
        : ((this.index.get(['k', q.category]) ?? 0) as number);
    const paging = q.limit === 0 ? { offset: q.offset } : { offset: q.offset, limit: q.limit };
    const ids: number[] = [];
    for (const key of this.index.getKeys({ start: [...prefix, MAX], end: [...prefix, -1], reverse: true, ...paging })) {
      const parts = key as unknown[];
      ids.push(parts[parts.length - 1] as number);
    }
    return { items: ids.map((id) => this.items.get(id)).filter((r): r is QueueRecord => r !== undefined), total };
  }

  /** Every history item newest first (the SABnzbd API's search walks this lazily and stops at its page). */
  *historyNewestFirst(category?: string): Generator<QueueRecord> {
    const prefix: Key[] = category === undefined ? ['h'] : ['hc', category];
    for (const key of this.index.getKeys({ start: [...prefix, MAX], end: [...prefix, -1], reverse: true })) {
      const parts = key as unknown[];
      const item = this.items.get(parts[parts.length - 1] as number);
      if (item) yield item;
    }
  }

  /** Adds the history keys of items stored before the history index existed (migration 'queue' v1). */
  reindexHistory(): number {
    let n = 0;
    for (const { value } of this.items.getRange()) {
      if (!isHistory(value)) continue;
      this.putHistoryKeys(value);
      n++;
    }
    return n;
  }

  private search(q: QueueListQuery): { items: QueueRecord[]; total: number } {
    const words = searchWords(q.search ?? '');
    // The longest word narrows most; the others are checked on the items it finds.
    const lead = words.reduce((a, b) => (b.length > a.length ? b : a));
    const ids = new Set<number>();
    for (const key of this.index.getKeys({ start: ['w', lead], end: ['w', lead + '\uffff'] })) {
      ids.add((key as unknown[])[2] as number);
    }
    const matches: QueueRecord[] = [];
    for (const id of ids) {
      const r = this.items.get(id);
      if (!r) continue;
      if (q.status && r.status !== q.status) continue;
      if (q.since !== undefined && r.updatedAt < q.since) continue;
      const own = wordsOf(r);
      if (!words.every((w) => own.some((o) => o.startsWith(w)))) continue;
      matches.push(r);
    }
    matches.sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
    const end = q.limit === 0 ? undefined : q.offset + q.limit;
    return { items: matches.slice(q.offset, end), total: matches.length };
  }

  private addIndexes(r: QueueRecord): void {
    void this.index.put(['u', r.updatedAt, r.id], null);
    void this.index.put(['s', r.status, r.updatedAt, r.id], null);
    for (const word of wordsOf(r)) void this.index.put(['w', word, r.id], null);
    // A paused item (SABnzbd API) stays out of the runner's two lists until it is resumed.
    if (r.status === 'pending' && !r.paused) void this.index.put(['p', 2 - r.priority, r.id], null);
    if (r.status === 'retrying' && !r.paused) void this.index.put(['t', r.nextAttemptAt ?? 0, r.id], null);
    if (isHistory(r)) this.putHistoryKeys(r);
    this.bump(r.status, 1);
  }

  private putHistoryKeys(r: QueueRecord): void {
    const at = finishedAt(r);
    void this.index.put(['h', at, r.id], null);
    void this.index.put(['hc', r.category ?? '*', at, r.id], null);
    this.add(['k', r.category ?? '*'], 1);
  }

  private dropIndexes(r: QueueRecord): void {
    void this.index.remove(['u', r.updatedAt, r.id]);
    void this.index.remove(['s', r.status, r.updatedAt, r.id]);
    for (const word of wordsOf(r)) void this.index.remove(['w', word, r.id]);
    if (r.status === 'pending') void this.index.remove(['p', 2 - r.priority, r.id]);
    if (r.status === 'retrying') void this.index.remove(['t', r.nextAttemptAt ?? 0, r.id]);
    if (isHistory(r)) {
      const at = finishedAt(r);
      void this.index.remove(['h', at, r.id]);
      void this.index.remove(['hc', r.category ?? '*', at, r.id]);
      this.add(['k', r.category ?? '*'], -1);
    }
    this.bump(r.status, -1);
  }

  private bump(status: QueueStatus, delta: number): void {
    this.add(['c', status], delta);
  }

  private add(key: Key, delta: number): void {
    void this.index.put(key, ((this.index.get(key) ?? 0) as number) + delta);
  }
}

const MAX_WORDS = 40;

/** Completed, failed and repairing items are the SABnzbd history (SABnzbd repairs in post-processing); the rest is its queue. */
export function isHistory(r: QueueRecord): boolean {
  return r.status === 'completed' || r.status === 'failed' || r.status === 'repairing';
}

/** When an item left the queue for the history: its completion, or its last change for a failure. */
export function finishedAt(r: QueueRecord): number {
  return r.status === 'completed' ? (r.completedAt ?? r.updatedAt) : r.updatedAt;
}

/** Lower-case words of a text: runs of letters and digits. */
export function searchWords(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 0),
    ),
  ];
}

/** What search matches against: the NZB's name, its path's last part, and the category. */
export function wordsOf(r: QueueRecord): string[] {
  const base = r.nzbPath.split('/').pop() ?? '';
  return searchWords(`${r.name} ${base} ${r.category ?? ''}`).slice(0, MAX_WORDS);
}
