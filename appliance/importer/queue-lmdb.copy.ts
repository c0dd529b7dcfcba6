import { isDeepStrictEqual } from 'node:util';
import { migrate, type Store } from '../store/index.js';
import type { CopyToLmdb, PgDb } from '../store/pg/index.js';
import { NzbBlobStore } from './nzb-blob.store.js';
import { PgQueueStore } from './queue-pg.store.js';
import { QUEUE_MIGRATIONS } from './queue.migrations.js';
import { QueueTables } from './queue.store.js';
import type { QueueRecord } from './queue.types.js';

/** Items (with their NZBs) per round. */
const BATCH = 200;

/**
 * The queue the other way (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy): the items with their
 * ids and NZBs, the seen hashes and the job directory holds of queue-pg.migrations.ts into the empty LMDB
 * databases LmdbQueueStore keeps (at this Spool's queue schema), the next id past PostgreSQL's sequence. Then every
 * item, NZB, seen hash and hold is read back from LMDB and compared, and the counts and the next retry, which LMDB
 * keeps as indexes, are checked against PostgreSQL's.
 */
export const copyQueueToLmdb: CopyToLmdb = async (from, to, progress) => {
  migrate(to, 'queue', QUEUE_MIGRATIONS);
  const tables = new QueueTables(to);
  const blobs = to.openDb<Buffer, number>('queue-nzbs', { encoding: 'binary' });
  const pg = new PgQueueStore(from);
  const seq = (
    await from.query<{ v: string; called: boolean }>('SELECT last_value AS v, is_called AS called FROM queue_item_ids')
  ).rows[0]!;
  let copied = 0;
  let bytes = 0;
  for await (const batch of itemBatches(from, pg)) {
    const nzbs = await nzbsOf(from, batch);
    const nextId = Number(seq.v) + (seq.called ? 1 : 0);
    to.transaction(() => {
      tables.insertCopied(batch, nextId);
      for (const [id, packed] of nzbs) void blobs.put(id, packed);
    });
    copied += batch.length;
    bytes += [...nzbs.values()].reduce((n, b) => n + b.length, 0);
    progress(`queue: ${copied} items copied`);
  }
  const seen = (await from.query<{ hash: string; id: string }>('SELECT hash, item_id AS id FROM queue_seen')).rows;
  const holds = (await from.query<{ path: string; id: string }>('SELECT path, item_id AS id FROM queue_job_dirs')).rows;
  const seenDb = to.openDb<number, string>('import-seen');
  to.transaction(() => {
    for (const s of seen) void seenDb.put(s.hash, Number(s.id));
    for (const h of holds) tables.holdJobDir(Number(h.id), h.path);
  });
  progress(`queue: ${seen.length} seen hashes, ${holds.length} job directory holds copied; checking`);
  await check(from, to, pg, seen, holds);
  return [{ scope: 'queue', records: copied + seen.length + holds.length, bytes }];
};

async function* itemBatches(from: PgDb, pg: PgQueueStore): AsyncGenerator<QueueRecord[]> {
  for (let last = 0; ;) {
    const ids = (
      await from.query<{ id: string }>('SELECT id FROM queue_items WHERE id > $1 ORDER BY id LIMIT $2', [last, BATCH])
    ).rows.map((r) => Number(r.id));
    if (ids.length === 0) return;
    yield await pg.getMany(ids);
    last = ids.at(-1)!;
  }
}

async function nzbsOf(from: PgDb, batch: readonly QueueRecord[]): Promise<Map<number, Buffer>> {
  const { rows } = await from.query<{ id: string; packed: Buffer }>(
    'SELECT item_id AS id, packed FROM queue_nzbs WHERE item_id = ANY($1::bigint[])',
    [batch.map((r) => r.id)],
  );
  return new Map(rows.map((r) => [Number(r.id), r.packed]));
}

async function check(
  from: PgDb,
  to: Store,
  pg: PgQueueStore,
  seen: readonly { hash: string; id: string }[],
  holds: readonly { path: string; id: string }[],
): Promise<void> {
  const tables = new QueueTables(to);
  const blobs = new NzbBlobStore(to);
  let count = 0;
  for await (const batch of itemBatches(from, pg)) {
    const nzbs = await nzbsOf(from, batch);
    for (const want of batch) {
      if (!isDeepStrictEqual(tables.get(want.id), want)) throw new Error(`queue item ${want.id} reads back different`);
      const [got, nzb] = [blobs.readCompressed(want.id), nzbs.get(want.id)];
      if ((got === undefined) !== (nzb === undefined) || (got && nzb && !got.equals(nzb)))
        throw new Error(`the NZB of queue item ${want.id} reads back different`);
    }
    count += batch.length;
  }
  if (to.openDb('queue-items').getKeysCount() !== count) throw new Error('the queue item count differs');
  for (const s of seen)
    if (blobs.seenAs(s.hash) !== Number(s.id)) throw new Error(`the seen hash ${s.hash} reads back different`);
  for (const h of holds)
    if (tables.jobDirOwner(h.path) !== Number(h.id)) throw new Error(`the job directory hold of ${h.path} differs`);
  if (!isDeepStrictEqual(tables.counts(), await pg.counts()))
    throw new Error('the queue counts differ between PostgreSQL and LMDB');
  if (tables.nextRetryAt() !== (await pg.nextRetryAt()))
    throw new Error('the next retry time differs between PostgreSQL and LMDB');
}
