import { AppError } from '../errors/app-error.js';
import { migratePg, PG_LOCKS, type PgDb, type PgTx } from '../store/pg/index.js';
import { PgJobDirHolds } from './queue-pg-holds.store.js';
import { QUEUE_PG_MIGRATIONS } from './queue-pg.migrations.js';
import { insertItems, isItemId, notifyItems, updateItem } from './queue-pg-rows.store.js';
import { PgQueueReads } from './queue-pg-reads.store.js';
import type { PackedNzb, QueueStore } from './queue.port.js';
import type { QueueRecord } from './queue.types.js';

/**
 * The queue's port on PostgreSQL (several nodes sharing one library; schema: queue-pg.migrations.ts). Every write
 * is one transaction that locks the rows it reads (`SELECT ... FOR UPDATE`; `SKIP LOCKED` for the runner's claim,
 * so two nodes claiming at once take different items; the job directory reservation under `PG_LOCKS.jobDirs`)
 * and notifies `spool_queue` with each item id it added, changed or removed, so the leader's runner wakes when
 * another node queued an NZB. A claim is the leader's only (`leaderOnly`: refused on a node whose lease moved); the
 * runner's other writes are fenced as the leader's work (store/pg/leader-fence.ts). The reads (lists, history, counts) are queue-pg-reads.store.ts.
 */
export class PgQueueStore extends PgQueueReads implements QueueStore {
  constructor(db: PgDb) {
    super(db);
  }

  async insert(draft: Omit<QueueRecord, 'id'>, nzb: PackedNzb): Promise<QueueRecord> {
    return this.db.tx(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(`SELECT nextval('queue_item_ids') AS id`);
      const record: QueueRecord = { ...draft, id: Number(rows[0]!.id) };
      await insertItems(tx, [record]);
      await tx.query('INSERT INTO queue_nzbs (item_id, packed) VALUES ($1, $2)', [record.id, nzb.packed]);
      // The first id an NZB was queued under is the one kept (queue.port.ts `seenAs`).
      await tx.query('INSERT INTO queue_seen (hash, item_id) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING', [
        nzb.hash,
        record.id,
      ]);
      await notifyItems(tx, [record.id]);
      return record;
    });
  }

  async update(id: number, change: (current: QueueRecord) => QueueRecord | null): Promise<QueueRecord | undefined> {
    if (!isItemId(id)) return undefined;
    return this.db.tx(async (tx) => {
      const current = (await lockItems(tx, [id]))[0];
      if (!current) return undefined;
      const next = change(current);
      if (!next) return current;
      await updateItem(tx, current, next);
      await notifyItems(tx, [id]);
      return next;
    });
  }

  async remove(id: number, allow: (current: QueueRecord) => boolean): Promise<QueueRecord | undefined> {
    return (await this.removeMany([id], allow))[0];
  }

  async removeMany(ids: readonly number[], allow: (current: QueueRecord) => boolean): Promise<QueueRecord[]> {
    const wanted = ids.filter(isItemId);
    if (wanted.length === 0) return [];
    return this.db.tx(async (tx) => {
      const locked = new Map((await lockItems(tx, wanted)).map((r) => [r.id, r]));
      const removed: QueueRecord[] = [];
      for (const id of wanted) {
        const current = locked.get(id);
        if (!current || !allow(current)) continue;
        locked.delete(id); // an id given twice is removed once, as in LMDB
        removed.push(current);
      }
      const gone = removed.map((r) => r.id);
      // The NZB, the search words and the job directory hold go with the item (ON DELETE CASCADE); the seen hash stays.
      if (gone.length > 0) await tx.query('DELETE FROM queue_items WHERE id = ANY($1::bigint[])', [gone]);
      await notifyItems(tx, gone);
      return removed;
    });
  }

  async claimNext(now: number, claim: (item: QueueRecord) => QueueRecord): Promise<QueueRecord | undefined> {
    return this.db.tx(
      async (tx) => {
        // A retry whose back-off is over first, else the first pending item by priority; rows another transaction
        // holds (another node's claim above all) are passed over, never waited for.
        const next =
          (await lockFirst(tx, 'retry_at <= $1 ORDER BY retry_at, id', [now])) ??
          (await lockFirst(tx, 'run_priority IS NOT NULL ORDER BY run_priority DESC, id', []));
        if (!next) return undefined;
        const claimed = claim(next);
        await updateItem(tx, next, claimed);
        await notifyItems(tx, [next.id]);
        return claimed;
      },
      { leaderOnly: true },
    );
  }

  async reserveJobDir(
    id: number,
    choose: (item: QueueRecord, holderOf: (path: string) => number | undefined) => string,
  ): Promise<string> {
    return this.db.tx(
      async (tx) => {
        const item = isItemId(id) ? (await lockItems(tx, [id]))[0] : undefined;
        if (!item) throw new AppError('NO_SUCH_RECORD', `Queue item ${id} not found`);
        const holds = new PgJobDirHolds(tx);
        const chosen = await holds.choose((holderOf) => choose(item, holderOf));
        await holds.hold(item, chosen);
        await updateItem(tx, item, { ...item, targetPath: chosen });
        await notifyItems(tx, [id]);
        return chosen;
      },
      { lock: PG_LOCKS.jobDirs },
    );
  }
}

/** Reads and row-locks these items (in id order, so two transactions locking the same ones never deadlock). */
async function lockItems(tx: PgTx, ids: readonly number[]): Promise<QueueRecord[]> {
  const { rows } = await tx.query<{ record: QueueRecord }>(
    'SELECT record FROM queue_items WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
    [ids],
  );
  return rows.map((r) => r.record);
}

async function lockFirst(tx: PgTx, where: string, params: unknown[]): Promise<QueueRecord | undefined> {
  const { rows } = await tx.query<{ record: QueueRecord }>(
    `SELECT record FROM queue_items WHERE ${where} LIMIT 1 FOR UPDATE SKIP LOCKED`,
    params,
  );
  return rows[0]?.record;
}

/** The queue on PostgreSQL, its schema brought up to date first (migrations run once, under a lock). */
export async function openPgQueue(db: PgDb): Promise<PgQueueStore> {
  await migratePg(db, { queue: QUEUE_PG_MIGRATIONS });
  return new PgQueueStore(db);
}
