import { AppError } from '../errors/app-error.js';
import type { PgTx } from '../store/pg/index.js';
import { finishedAt, isHistory, wordsOf } from './queue.store.js';
import type { QueueRecord } from './queue.types.js';

/**
 * How a queue record becomes its PostgreSQL rows (queue-pg.migrations.ts): the record as jsonb and the columns
 * derived from it, which mean what the LMDB store's `queue-index` keys mean (queue.store.ts), and its search
 * words. Used by the store (queue-pg.store.ts) and the copy from LMDB (queue.copy.ts).
 */

/** The channel every write of the queue notifies (payload: the item id), in the writing transaction. */
export const QUEUE_CHANNEL = 'spool_queue';

/** An item's record as the jsonb parameter; a NUL (which PostgreSQL text cannot hold) is refused, storing nothing. */
export function recordJson(r: QueueRecord): string {
  return JSON.stringify(r, (_key, value: unknown) => {
    if (typeof value === 'string' && value.includes('\0'))
      throw new AppError('VALIDATION_FAILED', 'A queue item cannot hold a NUL character in its name, path or category');
    return value;
  });
}

/** The indexed columns, in the order of COLUMNS. */
function columnsOf(r: QueueRecord): [string, number, number | null, number | null, number | null, string | null] {
  const history = isHistory(r);
  return [
    r.status,
    r.updatedAt,
    // ['p', 2 - priority, id]: pending and not paused, in the order the runner takes them
    r.status === 'pending' && !r.paused ? r.priority : null,
    // ['t', nextAttemptAt, id]: retrying and not paused, by when it is due
    r.status === 'retrying' && !r.paused ? (r.nextAttemptAt ?? 0) : null,
    // ['h', finishedAt, id] and ['hc', category ?? '*', finishedAt, id]
    history ? finishedAt(r) : null,
    history ? (r.category ?? '*') : null,
  ];
}

const COLUMNS = 'status, updated_at, run_priority, retry_at, finished_at, history_category';

/** Adds items (ids already assigned) with their search words. */
export async function insertItems(tx: PgTx, records: readonly QueueRecord[]): Promise<void> {
  if (records.length === 0) return;
  const cols = records.map(columnsOf);
  await tx.query(
    `INSERT INTO queue_items (id, record, ${COLUMNS})
     SELECT * FROM unnest($1::bigint[], $2::jsonb[], $3::text[], $4::float8[], $5::float8[], $6::float8[],
                          $7::float8[], $8::text[])`,
    [records.map((r) => r.id), records.map(recordJson), ...[0, 1, 2, 3, 4, 5].map((i) => cols.map((c) => c[i]))],
  );
  const words = records.flatMap((r) => wordsOf(r).map((w) => [w, r.id] as const));
  await insertWords(tx, words);
}

/** Writes the changed record of an existing item (its words only when they changed). */
export async function updateItem(tx: PgTx, before: QueueRecord, after: QueueRecord): Promise<void> {
  await tx.query(
    `UPDATE queue_items SET record = $2::jsonb, (${COLUMNS}) = ROW($3, $4, $5, $6, $7, $8) WHERE id = $1`,
    [before.id, recordJson(after), ...columnsOf(after)],
  );
  const old = wordsOf(before);
  const now = wordsOf(after);
  if (old.length === now.length && old.every((w, i) => w === now[i])) return;
  await tx.query('DELETE FROM queue_item_words WHERE item_id = $1', [before.id]);
  await insertWords(
    tx,
    now.map((w) => [w, before.id] as const),
  );
}

async function insertWords(tx: PgTx, words: readonly (readonly [string, number])[]): Promise<void> {
  if (words.length === 0) return;
  await tx.query('INSERT INTO queue_item_words (word, item_id) SELECT * FROM unnest($1::text[], $2::bigint[])', [
    words.map((w) => w[0]),
    words.map((w) => w[1]),
  ]);
}

/** Tells every node these items changed (delivered when the transaction commits; `spool_queue`, payload the id). */
export async function notifyItems(tx: PgTx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(`SELECT pg_notify('${QUEUE_CHANNEL}', id::text) FROM unnest($1::bigint[]) AS id`, [ids]);
}

/** An id a row can have (anything else names no item, as in LMDB). */
export function isItemId(id: number): boolean {
  return Number.isSafeInteger(id);
}
