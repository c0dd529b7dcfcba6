import type { EventSink, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import { migratePg, PG_LOCKS, type PgDb, type PgTx } from '../store/pg/index.js';
import { HEALTH_PG_MIGRATIONS } from './health-pg.migrations.js';
import { columnsOf, INSERT_RECORD, listSql, UPDATE_RECORD } from './health-pg.sql.js';
import { announceChanges, HealthStoreBase, type RecordChange } from './health-store.base.js';
import { HEALTH_CHANNEL, PgVerdicts } from './health-pg-verdicts.store.js';
import type { HealthListQuery, HealthStore, HealthWrite } from './health.port.js';
import type { HealthRecord } from './health.types.js';
import { HEALTH_STATUSES, type HealthStatus } from './health.wire.js';

/**
 * Brings the 'health' schema up to date (health-pg.migrations.ts), then opens the store and loads the verdicts the
 * VFS asks for (the records with bad news) once this node hears the health notifications. Every record this node
 * writes is announced on `events` (health.record.changed), as on LMDB.
 */
export async function openPgHealthStore(
  db: PgDb,
  events?: EventSink<SpoolEvents>,
  logger?: Logger,
): Promise<PgHealthStore> {
  await migratePg(db, { health: HEALTH_PG_MIGRATIONS });
  const store = new PgHealthStore(db, events, logger);
  await store.verdicts.open();
  return store;
}

type Row = { record: HealthRecord };

/**
 * The health store on PostgreSQL (the port is health.port.ts; the LMDB one, health.store.ts, is the reference:
 * same answers, same order). Records are rows of `health_records` (the record as jsonb plus its indexed columns,
 * health-pg.migrations.ts). `commit` is one transaction: each write reads its row `FOR UPDATE` (a path first takes
 * an advisory lock on the path, so two nodes creating the same file make one record). The VFS's verdicts are in
 * memory on every node (health-pg-verdicts.store.ts), told of other nodes' commits by `spool_health`.
 */
export class PgHealthStore extends HealthStoreBase implements HealthStore {
  readonly verdicts: PgVerdicts;

  constructor(
    private readonly db: PgDb,
    private readonly events?: EventSink<SpoolEvents>,
    logger?: Logger,
  ) {
    super();
    this.verdicts = new PgVerdicts(db, logger);
  }

  close(): void {
    this.verdicts.close();
  }

  async get(id: number): Promise<HealthRecord | undefined> {
    return this.one('SELECT record FROM health_records WHERE id = $1', [id]);
  }

  async byPath(path: string): Promise<HealthRecord | undefined> {
    return this.one('SELECT record FROM health_records WHERE path = $1', [path]);
  }

  async under(dir: string): Promise<HealthRecord[]> {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    return this.many('SELECT record FROM health_records WHERE path >= $1 AND path < $2 ORDER BY path', [
      prefix,
      `${prefix}\uffff`,
    ]);
  }

  async all(): Promise<HealthRecord[]> {
    return this.many('SELECT record FROM health_records ORDER BY id');
  }

  async withStatus(status: HealthStatus): Promise<HealthRecord[]> {
    return this.many('SELECT record FROM health_records WHERE status = $1 ORDER BY created_at, id', [status]);
  }

  async inStepAt(): Promise<number | undefined> {
    const rows = await this.db.query<{ value: number }>("SELECT value FROM health_meta WHERE key = 'in_step_at'");
    return rows.rows[0]?.value;
  }

  async setInStepAt(treeWrites: number | undefined): Promise<void> {
    if (treeWrites === undefined) await this.db.query("DELETE FROM health_meta WHERE key = 'in_step_at'");
    else
      await this.db.query(
        `INSERT INTO health_meta (key, value) VALUES ('in_step_at', $1::jsonb)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [JSON.stringify(treeWrites)],
      );
  }

  async list(q: HealthListQuery): Promise<{ items: HealthRecord[]; total: number }> {
    const { where, whereValues, order, page, values } = listSql(q);
    // One snapshot for the page and its total.
    return this.db.tx(
      async (tx) => {
        const total = await tx.query<{ n: number }>(`SELECT count(*)::float8 AS n FROM health_records ${where}`, [
          ...whereValues,
        ]);
        const items = await tx.query<Row>(
          `SELECT record FROM health_records ${where} ORDER BY ${order} ${page}`,
          values,
        );
        return { items: items.rows.map((r) => r.record), total: total.rows[0]!.n };
      },
      { isolation: 'repeatable read' },
    );
  }

  async counts(): Promise<Record<HealthStatus, number>> {
    const rows = await this.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::float8 AS n FROM health_records GROUP BY status',
    );
    const out = {} as Record<HealthStatus, number>;
    for (const s of HEALTH_STATUSES) out[s] = rows.rows.find((r) => r.status === s)?.n ?? 0;
    return out;
  }

  async manualCount(): Promise<number> {
    return this.count('WHERE manual_rank IS NOT NULL');
  }

  async manualQueue(limit: number): Promise<HealthRecord[]> {
    return this.many(
      'SELECT record FROM health_records WHERE manual_rank IS NOT NULL ORDER BY manual_rank, manual_at, id LIMIT $1',
      [Math.max(0, limit)],
    );
  }

  async due(now: number, limit: number): Promise<HealthRecord[]> {
    return this.many(
      `SELECT record FROM health_records WHERE next_check_at IS NOT NULL AND next_check_at <= $1
       ORDER BY tier, next_check_at, id LIMIT $2`,
      [now, Math.max(0, limit)],
    );
  }

  async dueCount(now: number): Promise<number> {
    return this.count('WHERE next_check_at IS NOT NULL AND next_check_at <= $1', [now]);
  }

  async verifiedSince(since: number): Promise<number> {
    return this.count('WHERE last_checked_at IS NOT NULL AND last_checked_at >= $1', [since]);
  }

  async filesCreatedBetween(from: number, to: number): Promise<number> {
    return this.count('WHERE file_created_at >= $1 AND file_created_at < $2', [from, to]);
  }

  async articleTotals(): Promise<{ files: number; articles: number }> {
    const rows = await this.db.query<{ files: number; articles: number }>(
      `SELECT count(*)::float8 AS files, coalesce(sum(total_segments), 0)::float8 AS articles
       FROM health_records WHERE total_segments > 0`,
    );
    return { files: rows.rows[0]!.files, articles: rows.rows[0]!.articles };
  }

  async repairsDue(now: number): Promise<HealthRecord[]> {
    return this.many(
      `SELECT record FROM health_records WHERE repair_next_at IS NOT NULL AND repair_next_at <= $1
       ORDER BY repair_next_at, id`,
      [now],
    );
  }

  async nextDueAt(): Promise<number | undefined> {
    const rows = await this.db.query<{ at: number | null }>(
      `SELECT LEAST((SELECT min(next_check_at) FROM health_records WHERE next_check_at IS NOT NULL),
                    (SELECT min(repair_next_at) FROM health_records WHERE repair_next_at IS NOT NULL)) AS at`,
    );
    return rows.rows[0]?.at ?? undefined;
  }

  /**
   * The one write path: every write of the unit in one transaction (a throw rolls all back; `create` and `change`
   * run again if PostgreSQL retries it), with the notification of changed verdicts; then this node's verdicts
   * take the records as committed and each written record is announced (health.record.changed).
   */
  async commit(writes: readonly HealthWrite[]): Promise<(HealthRecord | undefined)[]> {
    const { results, changes } = await this.db.tx(async (tx) => {
      const changes: RecordChange[] = [];
      const results: (HealthRecord | undefined)[] = [];
      for (const w of writes) results.push(await this.apply(tx, w, changes));
      const payload = this.verdicts.payloadOf(changes);
      if (payload !== null) await tx.query('SELECT pg_notify($1, $2)', [HEALTH_CHANNEL, payload]);
      return { results, changes };
    });
    this.verdicts.committed(changes);
    announceChanges(this.events, changes);
    return results;
  }

  /** One write inside the transaction of `commit`. */
  private async apply(tx: PgTx, w: HealthWrite, changes: RecordChange[]): Promise<HealthRecord | undefined> {
    switch (w.op) {
      case 'upsert': {
        await lockPath(tx, w.path);
        const existing = await first(tx, 'SELECT record FROM health_records WHERE path = $1 FOR UPDATE', [w.path]);
        if (existing) return this.replace(tx, existing, w.change(existing), changes);
        const created = w.create();
        const fields = { ...created, path: w.path };
        const { rows } = await tx.query<{ id: number }>(INSERT_RECORD, [
          ...columnsOf({ ...fields, id: 0 }),
          JSON.stringify(fields),
        ]);
        const record: HealthRecord = { ...created, id: rows[0]!.id, path: w.path };
        changes.push([undefined, record]);
        return record;
      }
      case 'update': {
        const current = await first(tx, 'SELECT record FROM health_records WHERE id = $1 FOR UPDATE', [w.id]);
        if (!current) return undefined;
        const next = w.change(current);
        return next ? this.replace(tx, current, next, changes) : current;
      }
      case 'remove': {
        const gone = await first(tx, 'DELETE FROM health_records WHERE id = $1 RETURNING record', [w.id]);
        if (gone) changes.push([gone, undefined]);
        return gone;
      }
      case 'rename': {
        await lockPath(tx, w.path);
        const there = await first(tx, 'SELECT record FROM health_records WHERE path = $1 FOR UPDATE', [w.path]);
        if (there && there.id !== w.id) await this.apply(tx, { op: 'remove', id: there.id }, changes);
        return this.apply(tx, { op: 'update', id: w.id, change: (r) => ({ ...r, path: w.path }) }, changes);
      }
    }
  }

  private async replace(tx: PgTx, current: HealthRecord, next: HealthRecord, changes: RecordChange[]) {
    const record = { ...next, id: current.id };
    await tx.query(UPDATE_RECORD, [current.id, ...columnsOf(record), JSON.stringify(record)]);
    changes.push([current, record]);
    return record;
  }

  private async one(sql: string, values: unknown[]): Promise<HealthRecord | undefined> {
    return (await this.db.query<Row>(sql, values)).rows[0]?.record;
  }

  private async many(sql: string, values?: unknown[]): Promise<HealthRecord[]> {
    return (await this.db.query<Row>(sql, values)).rows.map((r) => r.record);
  }

  private async count(where: string, values?: unknown[]): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::float8 AS n FROM health_records ${where}`,
      values,
    );
    return rows.rows[0]!.n;
  }
}

/** Writers of one path take turns, on every node, until their transactions end. */
async function lockPath(tx: PgTx, path: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PG_LOCKS.health, path]);
}

async function first(tx: PgTx, sql: string, values: unknown[]): Promise<HealthRecord | undefined> {
  return (await tx.query<Row>(sql, values)).rows[0]?.record;
}
