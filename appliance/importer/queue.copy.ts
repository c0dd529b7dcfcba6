import { isDeepStrictEqual } from 'node:util';
import type { Database, Key, Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { insertItems } from './queue-pg-rows.store.js';
import { PgQueueStore } from './queue-pg.store.js';
import { QueueTables } from './queue.store.js';
import type { QueueRecord } from './queue.types.js';

/** Items per transaction (and per read-back); NZB bytes per insert statement. */
const BATCH = 500;
const BLOB_BYTES = 8 * 1024 * 1024;

/**
 * The queue's part of `spool migrate` (appliance/app/migrate-to-pg.ts): the LMDB databases LmdbQueueStore keeps
 * (`queue-items`, `queue-nzbs`, `import-seen`, and from `queue-index` the job directory holds `['j', path]` and
 * the next id `['n']`) into the migrated, empty PostgreSQL tables of queue-pg.migrations.ts, the id sequence set
 * so that no id is ever handed out twice. Then every item, NZB, seen hash and hold is read back through the
 * PostgreSQL store and compared, and the counts and the next retry, which PostgreSQL derives from the records,
 * are checked against the LMDB index; the first difference throws.
 */
export const copyQueueToPg: CopyToPg = async (from, to, progress) => {
  const items = from.openDb<QueueRecord, number>('queue-items');
  const blobs = from.openDb<Buffer, number>('queue-nzbs', { encoding: 'binary' });
  const seen = from.openDb<number, string>('import-seen');
  const index = from.openDb<number | null, Key>('queue-index');
  const queue = new PgQueueStore(to);
  const { rows } = await to.query<{ n: number }>('SELECT count(*)::int AS n FROM queue_items');
  if (rows[0]!.n > 0) throw new Error('The PostgreSQL queue already holds items: the copy goes into an empty one');

  let copied = 0;
  let bytes = 0;
  let maxId = 0;
  for (const batch of batches(items.getRange().map(({ key, value }) => ({ ...value, id: key })))) {
    bytes += await to.tx(async (tx) => {
      await insertItems(tx, batch);
      let sum = 0;
      for (const group of blobGroups(batch.map((r) => [r.id, blobs.get(r.id)] as const))) {
        await tx.query('INSERT INTO queue_nzbs (item_id, packed) SELECT * FROM unnest($1::bigint[], $2::bytea[])', [
          group.map((g) => g[0]),
          group.map((g) => g[1]),
        ]);
        sum += group.reduce((n, g) => n + g[1].byteLength, 0);
      }
      return sum;
    });
    copied += batch.length;
    maxId = Math.max(maxId, ...batch.map((r) => r.id));
    progress(`queue: ${copied} items copied`);
  }
  const hashes = [...seen.getRange()].map(({ key, value }) => [key, value] as const);
  for (const batch of batches(hashes))
    await to.query('INSERT INTO queue_seen (hash, item_id) SELECT * FROM unnest($1::text[], $2::bigint[])', [
      batch.map((h) => h[0]),
      batch.map((h) => h[1]),
    ]);
  const holds = jobDirHolds(index, items);
  for (const batch of batches(holds))
    await to.query('INSERT INTO queue_job_dirs (path, item_id) SELECT * FROM unnest($1::text[], $2::bigint[])', [
      batch.map((h) => h[0]),
      batch.map((h) => h[1]),
    ]);
  // LMDB's next id may be past the highest item (the newest were removed): PostgreSQL goes on from there.
  const last = Math.max(maxId, ((index.get(['n']) as number | undefined) ?? 1) - 1);
  if (last > 0) await to.query(`SELECT setval('queue_item_ids', $1)`, [last]);
  progress(`queue: ${hashes.length} seen hashes, ${holds.length} job directory holds copied; checking`);

  await check(from, items, blobs, queue, to, hashes, holds, last);
  return [{ scope: 'queue', records: copied + hashes.length + holds.length, bytes }];
};

/** Reads everything back through the PostgreSQL store and compares it with LMDB; throws on the first difference. */
async function check(
  from: Store,
  items: Database<QueueRecord, number>,
  blobs: Database<Buffer, number>,
  queue: PgQueueStore,
  to: PgDb,
  hashes: readonly (readonly [string, number])[],
  holds: readonly (readonly [string, number])[],
  last: number,
): Promise<void> {
  for (const batch of batches(items.getRange().map(({ key, value }) => ({ ...value, id: key })))) {
    const back = await queue.getMany(batch.map((r) => r.id));
    for (const [i, want] of batch.entries()) {
      // As JSON keeps it: a field set to undefined is a field absent.
      if (!isDeepStrictEqual(back[i], JSON.parse(JSON.stringify(want))))
        throw new Error(`queue item ${want.id} reads back different from PostgreSQL`);
      const nzb = blobs.get(want.id);
      const got = await queue.nzb(want.id);
      if ((nzb === undefined) !== (got === undefined) || (nzb && got && !nzb.equals(got)))
        throw new Error(`the NZB of queue item ${want.id} reads back different from PostgreSQL`);
    }
  }
  for (const [hash, id] of hashes)
    if ((await queue.seenAs(hash)) !== id) throw new Error(`the seen hash ${hash} reads back different`);
  const { rows } = await to.query<{ path: string; id: string }>('SELECT path, item_id AS id FROM queue_job_dirs');
  const pgHolds = new Map(rows.map((r) => [r.path, Number(r.id)]));
  if (pgHolds.size !== holds.length || holds.some(([path, id]) => pgHolds.get(path) !== id))
    throw new Error('the job directory holds read back different from PostgreSQL');
  const tables = new QueueTables(from);
  if (!isDeepStrictEqual(await queue.counts(), tables.counts()))
    throw new Error('the queue counts differ between LMDB and PostgreSQL');
  if ((await queue.nextRetryAt()) !== tables.nextRetryAt())
    throw new Error('the next retry time differs between LMDB and PostgreSQL');
  const seq = await to.query<{ v: string; called: boolean }>(
    'SELECT last_value AS v, is_called AS called FROM queue_item_ids',
  );
  if (last > 0 && (Number(seq.rows[0]!.v) !== last || !seq.rows[0]!.called))
    throw new Error('the queue id sequence was not set past the highest id');
}

/** The holds of live items (a hold of a removed item is nobody's in LMDB: LmdbQueueStore `jobDirOwner`). */
function jobDirHolds(
  index: Database<number | null, Key>,
  items: Database<QueueRecord, number>,
): (readonly [string, number])[] {
  const out: (readonly [string, number])[] = [];
  for (const { key, value } of index.getRange({ start: ['j'] })) {
    const parts = key as unknown[];
    if (parts[0] !== 'j') break;
    if (typeof parts[1] === 'string' && typeof value === 'number' && items.get(value)) out.push([parts[1], value]);
  }
  return out;
}

function* batches<T>(all: Iterable<T>): Generator<T[]> {
  let batch: T[] = [];
  for (const x of all) {
    batch.push(x);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The NZBs that exist, in groups of about BLOB_BYTES. */
function* blobGroups(all: readonly (readonly [number, Buffer | undefined])[]): Generator<[number, Buffer][]> {
  let group: [number, Buffer][] = [];
  let size = 0;
  for (const [id, blob] of all) {
    if (!blob) continue;
    group.push([id, blob]);
    size += blob.byteLength;
    if (size >= BLOB_BYTES) {
      yield group;
      group = [];
      size = 0;
    }
  }
  if (group.length > 0) yield group;
}
