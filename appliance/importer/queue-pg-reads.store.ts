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
    const since = Math.max(0, q.since ?? 0);
    const status = q.status ?? null;
    return this.page(
      'status = coalesce($1, status) AND updated_at >= $2',
      q.since === undefined ? 'status = coalesce($1, status)' : 'status = coalesce($1, status) AND updated_at >= $2',
      [status, since],
      'updated_at DESC, id DESC',
      q,
    );
  }

  async history(q: { category?: string; offset: number; limit: number }): Promise<QueuePage> {
    // No item's category holds a NUL (the store refuses one), and PostgreSQL would refuse it as a parameter.
    if (q.category?.includes('\0')) return { items: [], total: 0 };
    const where = 'finished_at IS NOT NULL AND history_category = coalesce($1, history_category)';
    return this.page(where, where, [q.category ?? null], 'finished_at DESC, id DESC', q);
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
   * Search (queue.store.ts `search`): items having, for every word searched, a word that starts with it; the
   * longest word searched narrows on the word index (a range: the words hold only letters and digits, all below
   * U+10FFFF), the others are checked on the items it finds.
   */
  private search(q: QueueListQuery, words: string[]): Promise<QueuePage> {
    const lead = words.reduce((a, b) => (b.length > a.length ? b : a));
    const where = `id IN (SELECT item_id FROM queue_item_words WHERE word >= $1 AND word < $1 || chr(1114111))
      AND status = coalesce($2, status) AND ($3::float8 IS NULL OR updated_at >= $3)
      AND (SELECT bool_and(EXISTS (SELECT 1 FROM queue_item_words o WHERE o.item_id = queue_items.id
                                     AND starts_with(o.word, w)))
           FROM unnest($4::text[]) AS w)`;
    return this.page(where, where, [lead, q.status ?? null, q.since ?? null, words], 'updated_at DESC, id DESC', q);
  }

  /** One page (`limit` 0 = all) in `order` and the total of `countWhere`, read together. */
  private async page(
    where: string,
    countWhere: string,
    params: unknown[],
    order: string,
    q: { offset: number; limit: number },
  ): Promise<QueuePage> {
    const n = params.length;
    const countParams = params.slice(0, maxParam(countWhere));
    const [items, total] = await Promise.all([
      this.db.query<{ record: QueueRecord }>(
        `SELECT record FROM queue_items WHERE ${where} ORDER BY ${order} OFFSET $${n + 1} LIMIT $${n + 2}`,
        [...params, Math.max(0, q.offset), q.limit === 0 ? null : q.limit],
      ),
      this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_items WHERE ${countWhere}`, countParams),
    ]);
    return { items: items.rows.map((r) => r.record), total: total.rows[0]?.n ?? 0 };
  }
}

/** The highest `$n` a statement uses (its parameter list must be exactly that long). */
function maxParam(sql: string): number {
  return Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
}
