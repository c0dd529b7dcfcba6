import type { PgDb } from '../store/pg/index.js';
import { isItemId } from './queue-pg-rows.store.js';
import { searchWords } from './queue.store.js';
import type { QueuePage } from './queue.port.js';
import type { QueueListQuery, QueueRecord } from './queue.types.js';
import { QUEUE_STATUSES, type QueueStatus } from './queue.wire.js';

/**
 * The queue's reads on PostgreSQL (the writes: queue-pg.store.ts), each one statement over the indexed columns of
 * queue-pg.migrations.ts, in the orders the LMDB store reads its `queue-index` ranges (queue.store.ts): lists
 * newest activity first (`updated_at`, then id, descending), the history by finish time, ids oldest activity
 * first. Totals are counted (indexed), not kept in counters every write would contend on.
 */
export class PgQueueReads {
  constructor(protected readonly db: PgDb) {}

  async get(id: number): Promise<QueueRecord | undefined> {
    if (!isItemId(id)) return undefined;
    const { rows } = await this.db.query<{ record: QueueRecord }>('SELECT record FROM queue_items WHERE id = $1', [id]);
    return rows[0]?.record;
  }

  async getMany(ids: readonly number[]): Promise<QueueRecord[]> {
    const wanted = ids.filter(isItemId);
    if (wanted.length === 0) return [];
    const { rows } = await this.db.query<{ record: QueueRecord }>(
      'SELECT record FROM queue_items WHERE id = ANY($1::bigint[])',
      [wanted],
    );
    const byId = new Map(rows.map((r) => [r.record.id, r.record]));
    return wanted.map((id) => byId.get(id)).filter((r): r is QueueRecord => r !== undefined);
  }

  async counts(): Promise<Record<QueueStatus, number>> {
    const { rows } = await this.db.query<{ status: QueueStatus; n: number }>(
      'SELECT status, count(*)::int AS n FROM queue_items GROUP BY status',
    );
    const out = {} as Record<QueueStatus, number>;
    for (const status of QUEUE_STATUSES) out[status] = 0;
    for (const row of rows) if (row.status in out) out[row.status] = row.n;
    return out;
  }

  async idsWithStatus(status: QueueStatus, updatedBefore = Infinity): Promise<number[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM queue_items WHERE status = $1 AND ($2::float8 IS NULL OR updated_at < $2)
       ORDER BY updated_at, id`,
      [status, updatedBefore === Infinity ? null : updatedBefore],
    );
    return rows.map((r) => Number(r.id));
  }

  async nextRetryAt(): Promise<number | undefined> {
    const { rows } = await this.db.query<{ at: number }>(
      'SELECT retry_at AS at FROM queue_items WHERE retry_at IS NOT NULL ORDER BY retry_at, id LIMIT 1',
    );
    return rows[0]?.at;
  }

  async list(q: QueueListQuery): Promise<QueuePage> {
    const words = searchWords(q.search ?? '');
    if (words.length > 0) return this.search(q, words);
    // The LMDB range runs down to `since` (0 when absent); its total is the status's count when no `since` is given.
    const where = new Where();
    const total = new Where();
    for (const w of q.status ? [where, total] : []) w.and('status = ?', q.status);
    where.and('updated_at >= ?', Math.max(0, q.since ?? 0));
    if (q.since !== undefined) total.and('updated_at >= ?', Math.max(0, q.since));
    return this.page(where, total, 'updated_at DESC, id DESC', q);
  }

  async history(q: { category?: string; offset: number; limit: number }): Promise<QueuePage> {
    // No item's category holds a NUL (the store refuses one), and PostgreSQL would refuse it as a parameter.
    if (q.category?.includes('\0')) return { items: [], total: 0 };
    const where = new Where().and('finished_at IS NOT NULL');
    if (q.category !== undefined) where.and('history_category = ?', q.category);
    return this.page(where, where, 'finished_at DESC, id DESC', q);
  }

  async nzb(id: number): Promise<Buffer | undefined> {
    if (!isItemId(id)) return undefined;
    const { rows } = await this.db.query<{ packed: Buffer }>('SELECT packed FROM queue_nzbs WHERE item_id = $1', [id]);
    return rows[0]?.packed;
  }

  async seenAs(hash: string): Promise<number | undefined> {
    if (hash.includes('\0')) return undefined;
    const { rows } = await this.db.query<{ id: string }>('SELECT item_id AS id FROM queue_seen WHERE hash = $1', [
      hash,
    ]);
    return rows[0] ? Number(rows[0].id) : undefined;
  }

  /**
   * Search (queue.store.ts `search`): items having, for every word searched, a word that starts with it. Each word
   * searched is a range of the word index (the words hold only letters and digits, all below U+10FFFF); an item is
   * in when it is in every range (INTERSECT).
   */
  private search(q: QueueListQuery, words: string[]): Promise<QueuePage> {
    const ranges = words.map(() => 'SELECT item_id FROM queue_item_words WHERE word >= ? AND word < ? || chr(1114111)');
    const where = new Where().and(`id IN (${ranges.join(' INTERSECT ')})`, ...words.flatMap((w) => [w, w]));
    if (q.status) where.and('status = ?', q.status);
    if (q.since !== undefined) where.and('updated_at >= ?', q.since);
    return this.page(where, where, 'updated_at DESC, id DESC', q);
  }

  /** One page (`limit` 0 = all) in `order` and the total of `total`, read together. */
  private async page(
    where: Where,
    total: Where,
    order: string,
    q: { offset: number; limit: number },
  ): Promise<QueuePage> {
    const paging = [Math.max(0, q.offset), q.limit === 0 ? null : Math.max(0, q.limit)];
    const n = where.params.length;
    const [items, count] = await Promise.all([
      this.db.query<{ record: QueueRecord }>(
        `SELECT record FROM queue_items ${where.sql()} ORDER BY ${order} OFFSET $${n + 1} LIMIT $${n + 2}`,
        [...where.params, ...paging],
      ),
      this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_items ${total.sql()}`, total.params),
    ]);
    return { items: items.rows.map((r) => r.record), total: count.rows[0]?.n ?? 0 };
  }
}

/** A WHERE clause built of conditions whose `?` become numbered parameters. */
class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  and(condition: string, ...values: unknown[]): this {
    let i = 0;
    this.parts.push(condition.replace(/\?/g, () => (this.params.push(values[i++]), `$${this.params.length}`)));
    return this;
  }

  sql(): string {
    return this.parts.length === 0 ? '' : `WHERE ${this.parts.join(' AND ')}`;
  }
}
