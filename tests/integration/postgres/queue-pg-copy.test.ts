import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { copyQueueToPg } from '../../../appliance/importer/queue.copy.js';
import { openPgQueue } from '../../../appliance/importer/queue-pg.store.js';
import { LmdbQueueStore } from '../../../appliance/importer/queue-lmdb.store.js';
import { QueueService } from '../../../appliance/importer/queue.service.js';
import { openStore, type Store } from '../../../appliance/store/index.js';
import { openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

// `spool migrate`'s queue part: an LMDB queue in every state copied into a real PostgreSQL and read back alike.
let server: PostgresServer;
let dir: string;
before(async () => {
  server = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'spool-queue-copy-'));
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let clock = 5_000_000;
const now = () => clock;
const nzb = (tag: string) =>
  Buffer.from(
    `<nzb><file subject="${tag}"><segments><segment bytes="7" number="1">${tag}@x</segment></segments></file></nzb>`,
  );
const dirFor = (name: string) => (n: number) => (n === 1 ? `/complete/${name}` : `/complete/${name} (${n})`);

/** An LMDB queue with an item in each state, a held job directory, and its newest item removed. */
async function lmdbQueue(store: Store): Promise<{ queue: QueueService; removed: number; removedHash: string }> {
  const queue = new QueueService(new LmdbQueueStore(store), () => ({ maxRetries: 2 }), now);
  const add = async (path: string, category?: string) => {
    clock += 1000;
    return queue.enqueue({ nzb: nzb(path), nzbPath: path, ...(category ? { category } : {}) });
  };
  const done = await add('/nzb/The.Show.S01E01.nzb', 'tv');
  await queue.claim();
  await queue.reserveJobDir(done.id, dirFor('The.Show.S01E01'), () => false);
  await queue.complete(done.id, { targetPath: '/complete/The.Show.S01E01', fileSize: 70, warnings: ['a piece'] });
  const failed = await add('/nzb/A.Movie.2024.nzb', 'movies');
  await queue.claim();
  await queue.fail(failed.id, 'articles missing', null, 'ARTICLES_MISSING');
  const retrying = await add('/nzb/The.Show.S01E02.nzb', 'tv');
  await queue.claim();
  await queue.fail(retrying.id, 'timeout', clock + 60_000);
  const paused = await add('/nzb/Paused.One.nzb');
  await queue.setPaused(paused.id, true);
  await queue.enqueue({ nzb: nzb('pw'), nzbPath: 'Secret.nzb', password: 'hunter2', priority: 1 });
  await add('/nzb/Plain.Pending.nzb');
  const gone = await add('/nzb/Gone.nzb');
  await queue.remove(gone.id);
  return { queue, removed: gone.id, removedHash: gone.contentHash };
}

test('an LMDB queue copies into PostgreSQL whole and reads back alike; new ids go on past the removed ones', async () => {
  const store = openStore({ rootPath: mkdtempSync(join(dir, 'lmdb-')) });
  const db: PgDb = await openPgDb(await server.createDatabase());
  try {
    const lmdb = await lmdbQueue(store);
    const pgStore = await openPgQueue(db);
    const lines: string[] = [];
    const reports = await copyQueueToPg(store, db, (line) => lines.push(line));
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.scope, 'queue');
    assert.equal(reports[0]!.records, 6 + 7 + 1, '6 items, 7 seen hashes (the removed one too), 1 hold');
    assert.ok((reports[0]!.bytes ?? 0) > 0);
    assert.ok(
      lines.some((l) => l.includes('6 items copied')),
      lines.join('\n'),
    );

    const pg = new QueueService(pgStore, () => ({ maxRetries: 2 }), now);
    const all = { limit: 0, offset: 0 };
    assert.deepEqual(await pg.list(all), await lmdb.queue.list(all));
    assert.deepEqual(await pg.list({ ...all, search: 'show' }), await lmdb.queue.list({ ...all, search: 'show' }));
    assert.deepEqual(
      await pg.list({ ...all, status: 'pending' }),
      await lmdb.queue.list({ ...all, status: 'pending' }),
    );
    assert.deepEqual(await pg.history(all), await lmdb.queue.history(all));
    assert.deepEqual(
      await pg.history({ ...all, category: 'tv' }),
      await lmdb.queue.history({ ...all, category: 'tv' }),
    );
    assert.deepEqual(await pg.active(), await lmdb.queue.active());
    assert.deepEqual(await pg.stats(), await lmdb.queue.stats());
    assert.equal(await pg.nextRetryAt(), await lmdb.queue.nextRetryAt());
    assert.equal((await pg.get(5))?.password, 'hunter2');
    for (const item of (await lmdb.queue.list(all)).items)
      assert.deepEqual(await pg.nzbCompressed(item.id), await lmdb.queue.nzbCompressed(item.id));
    assert.equal(await pg.seenAs(lmdb.removedHash), lmdb.removed, 'the seen hash of a removed item came along');

    // The next item gets the id LMDB would have given, never the removed one's; the held directory stays held.
    const [inPg, inLmdb] = [
      await pg.enqueue({ nzb: nzb('next'), nzbPath: 'The.Show.S01E01.nzb' }),
      await lmdb.queue.enqueue({ nzb: nzb('next'), nzbPath: 'The.Show.S01E01.nzb' }),
    ];
    assert.equal(inPg.id, inLmdb.id);
    assert.ok(inPg.id > lmdb.removed);
    assert.equal(
      await pg.reserveJobDir(inPg.id, dirFor('The.Show.S01E01'), () => false),
      '/complete/The.Show.S01E01 (2)',
    );

    await assert.rejects(
      copyQueueToPg(store, db, () => undefined),
      /already holds items/,
    );
  } finally {
    await db.close();
    await store.close();
  }
});
