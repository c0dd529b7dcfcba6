import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logging/logger.js';
import type { PgDb } from './pg-db.js';

/** How long opening waits for the node's listening connection to hear the channel. */
const LISTEN_WAIT_MS = 5_000;

/**
 * A table of counters every node adds to (download totals per provider and day, bytes fetched per class and day):
 * key columns, `bigint` counter columns that an add increments (`c = c + $n`, so two nodes' counts add up), and
 * text label columns the last add sets. Column and table names come from code, never from input.
 */
export interface PgCountersSpec<K extends string, C extends string, L extends string> {
  table: string;
  keys: readonly K[];
  counters: readonly C[];
  labels: readonly L[];
  /** The scope's notification channel (`spool_<scope>`): each add names its key there, each drop sends `*`. */
  channel: string;
  /** The backstop re-read of the whole table (default 30 s), for a notification missed while connecting. */
  refreshMs?: number;
}

export type CounterRow<K extends string, C extends string, L extends string> = Record<K | L, string> &
  Record<C, number>;

/**
 * The counters kept in memory on every node, so a port's synchronous `all()` never waits for the network: the
 * table read when opened; this node's adds counted at once (and corrected to the stored sums when the write
 * returns); other nodes' adds read again when their notification arrives, on a reconnect, and every `refreshMs`.
 * Writes and re-reads run one at a time, so a re-read never meets a write in flight. A failed write keeps its
 * counts pending (still counted in `rows()`) and is tried again with the next write or the next refresh.
 */
export class PgCounters<K extends string, C extends string, L extends string> {
  private readonly stored = new Map<string, CounterRow<K, C, L>>();
  private readonly pending = new Map<string, CounterRow<K, C, L>>();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly unlisten: () => void;
  /** The token of `open`'s ping, and what to call when it comes back. */
  private ping: { token: string; heard: () => void } | null = null;

  private constructor(
    private readonly db: PgDb,
    private readonly spec: PgCountersSpec<K, C, L>,
    private readonly logger: Logger,
  ) {
    this.unlisten = db.listen(
      spec.channel,
      (payload) => (payload === this.ping?.token ? this.ping.heard() : this.heard(payload)),
      () => void this.refresh(),
    );
    this.timer = setInterval(() => void this.refresh(), spec.refreshMs ?? 30_000);
    this.timer.unref();
  }

  /**
   * Reads the whole table once the node listens on the channel (so no add committed after the read goes unheard);
   * a failure to read rejects: the caller cannot start without it.
   */
  static async open<K extends string, C extends string, L extends string>(
    db: PgDb,
    spec: PgCountersSpec<K, C, L>,
    logger: Logger,
  ): Promise<PgCounters<K, C, L>> {
    const counters = new PgCounters(db, spec, logger);
    try {
      await counters.listening();
      await counters.enqueue(() => counters.readAll());
    } catch (err) {
      counters.close();
      throw err;
    }
    return counters;
  }

  /** Every row: the stored sums plus this node's counts not stored yet. */
  *rows(): Iterable<CounterRow<K, C, L>> {
    for (const [id, row] of this.stored) yield this.pending.has(id) ? this.sum(row, this.pending.get(id)!) : row;
    for (const [id, row] of this.pending) if (!this.stored.has(id)) yield row;
  }

  /** Adds one row's counters (its labels replace the stored ones); counted in `rows()` at once. */
  add(delta: CounterRow<K, C, L>): Promise<void> {
    const id = this.idOf(delta);
    const before = this.pending.get(id);
    this.pending.set(id, before ? this.sum(before, delta) : { ...delta });
    return this.enqueue(() => this.write(id));
  }

  /** Resolves when every add so far is stored (rejects if the last try to store them failed). */
  flushed(): Promise<void> {
    return this.enqueue(() => this.writePending());
  }

  /** Deletes the rows `where` names (an SQL condition on the table's columns) here and on every node (notified). */
  deleteWhere(where: string, params: unknown[], matches: (row: CounterRow<K, C, L>) => boolean): Promise<void> {
    return this.enqueue(async () => {
      await this.db.tx(async (tx) => {
        const gone = await tx.query(`DELETE FROM ${this.spec.table} WHERE ${where}`, params);
        if (gone.rowCount) await tx.query('SELECT pg_notify($1, $2)', [this.spec.channel, '*']);
      });
      for (const map of [this.stored, this.pending]) for (const [id, row] of map) if (matches(row)) map.delete(id);
    });
  }

  /** Stops the re-reads and the listening (pending counts not stored by now are lost: await `flushed()` first). */
  close(): void {
    clearInterval(this.timer);
    this.unlisten();
  }

  /**
   * Waits until this node hears its own ping on the channel: the listening connection is up (it connects in the
   * background). Gives up after LISTEN_WAIT_MS with a warning; the periodic re-read then covers the gap.
   */
  private async listening(): Promise<void> {
    const token = `ping:${randomUUID()}`;
    const heard = new Promise<boolean>((resolve) => (this.ping = { token, heard: () => resolve(true) }));
    const started = Date.now();
    let ok = false;
    while (!ok && Date.now() - started < LISTEN_WAIT_MS) {
      await this.db.notify(this.spec.channel, token);
      ok = await Promise.race([heard, new Promise<boolean>((r) => setTimeout(() => r(false), 100))]);
    }
    this.ping = null;
    if (!ok) this.logger.warn('not listening for counter changes yet', { channel: this.spec.channel });
  }

  private heard(payload: string): void {
    if (payload === '*') return void this.refresh();
    let key: unknown;
    try {
      key = JSON.parse(payload);
    } catch {
      key = null;
    }
    if (!Array.isArray(key) || key.length !== this.spec.keys.length) return;
    void this.enqueue(() => this.readOne(key as string[])).catch((err: Error) =>
      this.logger.warn('could not read counters again', { table: this.spec.table, error: err.message }),
    );
  }

  private refresh(): Promise<void> {
    return this.enqueue(async () => {
      await this.writePending().catch(() => undefined);
      await this.readAll();
    }).catch((err: Error) =>
      this.logger.warn('could not read counters again', { table: this.spec.table, error: err.message }),
    );
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(job, job);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    for (const id of [...this.pending.keys()]) await this.write(id);
  }

  private async write(id: string): Promise<void> {
    const delta = this.pending.get(id);
    if (!delta) return; // an earlier write took these counts along
    const { table, keys, counters, labels, channel } = this.spec;
    const cols = [...keys, ...counters, ...labels];
    const set = [
      ...counters.map((c) => `${c} = ${table}.${c} + EXCLUDED.${c}`),
      ...labels.map((l) => `${l} = EXCLUDED.${l}`),
    ];
    const params = [...cols.map((c) => delta[c]), channel, JSON.stringify(keys.map((k) => delta[k]))];
    const { rows } = await this.db.query(
      `WITH up AS (
         INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${set.join(', ')}
         RETURNING *)
       SELECT up.*, pg_notify($${cols.length + 1}, $${cols.length + 2}) FROM up`,
      params,
    );
    const now = this.pending.get(id);
    if (now === delta) this.pending.delete(id);
    else if (now) this.pending.set(id, this.minus(now, delta)); // counts added while the write was out
    if (rows[0]) this.stored.set(id, this.rowOf(rows[0]));
  }

  private async readAll(): Promise<void> {
    const { rows } = await this.db.query(`SELECT * FROM ${this.spec.table}`);
    this.stored.clear();
    for (const r of rows) {
      const row = this.rowOf(r);
      this.stored.set(this.idOf(row), row);
    }
  }

  private async readOne(key: string[]): Promise<void> {
    const where = this.spec.keys.map((k, i) => `${k} = $${i + 1}`).join(' AND ');
    const { rows } = await this.db.query(`SELECT * FROM ${this.spec.table} WHERE ${where}`, key);
    const id = JSON.stringify(key);
    if (rows[0]) this.stored.set(id, this.rowOf(rows[0]));
    else this.stored.delete(id);
  }

  private rowOf(r: Record<string, unknown>): CounterRow<K, C, L> {
    const row: Record<string, string | number> = {};
    for (const c of [...this.spec.keys, ...this.spec.labels]) row[c] = String(r[c]);
    for (const c of this.spec.counters) row[c] = Number(r[c]); // bigint arrives as text
    return row as CounterRow<K, C, L>;
  }

  private idOf(row: CounterRow<K, C, L>): string {
    return JSON.stringify(this.spec.keys.map((k) => row[k]));
  }

  private sum(a: CounterRow<K, C, L>, b: CounterRow<K, C, L>): CounterRow<K, C, L> {
    const out: CounterRow<K, C, L> = { ...a, ...b };
    for (const c of this.spec.counters) (out as Record<C, number>)[c] = a[c] + b[c];
    return out;
  }

  private minus(a: CounterRow<K, C, L>, b: CounterRow<K, C, L>): CounterRow<K, C, L> {
    const out: CounterRow<K, C, L> = { ...a };
    for (const c of this.spec.counters) (out as Record<C, number>)[c] = a[c] - b[c];
    return out;
  }
}
