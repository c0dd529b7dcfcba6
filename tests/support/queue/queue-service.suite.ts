/**
 * The queue service's tests over any QueueStore (queue.port.ts): run on LMDB by appliance/importer/queue.store.test.ts
 * and on PostgreSQL by tests/integration/postgres/queue-pg.test.ts, so both stores answer alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueueStore } from '../../../appliance/importer/queue.port.js';
import { QueueService } from '../../../appliance/importer/queue.service.js';

/** Registers the tests; `open` gives each test an empty store of its own (ids and the runnable order start afresh). */
export function queueServiceSuite(open: () => Promise<QueueStore>): void {
  let clock = 1_000_000;
  const now = () => clock;
  const fresh = async () => new QueueService(await open(), () => ({ maxRetries: 2 }), now);

  const nzb = (tag: string) =>
    Buffer.from(
      `<nzb><file subject="${tag}"><segments><segment bytes="10" number="1">${tag}@x</segment></segments></file></nzb>`,
    );

  test('enqueue stores the item pending, the NZB compressed and readable, and an estimate of its size', async () => {
    const q = await fresh();
    const item = await q.enqueue({ nzb: nzb('a'), nzbPath: '/nzbs/Show.S01E01.nzb', category: 'tv', priority: 1 });
    assert.equal(item.status, 'pending');
    assert.equal(item.name, 'Show.S01E01');
    assert.equal(item.fileSize, 10);
    assert.deepEqual(await q.nzb(item.id), nzb('a'));
    assert.equal(await q.seenAs(item.contentHash), item.id);
    assert.deepEqual(await q.stats(), {
      total_queued: 1,
      total_processing: 0,
      total_completed: 0,
      total_failed: 0,
      total_pending: 1,
      total_retrying: 0,
    });
  });

  test('claim takes the highest priority first, then oldest; an item is never claimed twice', async () => {
    const q = await fresh();
    const low = await q.enqueue({ nzb: nzb('l'), nzbPath: 'low.nzb', priority: -1 });
    const normal = await q.enqueue({ nzb: nzb('n'), nzbPath: 'normal.nzb' });
    const high = await q.enqueue({ nzb: nzb('h'), nzbPath: 'high.nzb', priority: 1 });
    const normal2 = await q.enqueue({ nzb: nzb('n2'), nzbPath: 'normal2.nzb' });
    const order = [await q.claim(), await q.claim(), await q.claim(), await q.claim(), await q.claim()].map(
      (r) => r?.id,
    );
    assert.deepEqual(order, [high.id, normal.id, normal2.id, low.id, undefined]);
    assert.equal((await q.stats()).total_processing, 4);
  });

  test('list: newest activity first, status filter, since, paging with meta total, limit 0 = all', async () => {
    const q = await fresh();
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      clock += 1000;
      ids.push((await q.enqueue({ nzb: nzb(`x${i}`), nzbPath: `Item.${i}.nzb` })).id);
    }
    for (const id of ids.slice(0, 5)) {
      clock += 1000;
      await q.claim();
      await q.fail(id, 'boom', null);
    }
    const page = await q.list({ limit: 10, offset: 0 });
    assert.equal(page.total, 30);
    assert.equal(page.items.length, 10);
    assert.deepEqual(
      page.items.slice(0, 5).map((r) => r.id),
      ids.slice(0, 5).reverse(),
      'the failed ones changed last',
    );
    const failed = await q.list({ limit: 20, offset: 0, status: 'failed' });
    assert.equal(failed.total, 5);
    assert.ok(failed.items.every((r) => r.status === 'failed'));
    const pendingPage2 = await q.list({ limit: 20, offset: 20, status: 'pending' });
    assert.equal(pendingPage2.total, 25);
    assert.equal(pendingPage2.items.length, 5);
    const since = await q.list({ limit: 100, offset: 0, since: clock - 2000 });
    assert.equal(since.total, 3);
    assert.equal((await q.list({ limit: 0, offset: 0 })).items.length, 30);
  });

  test('search matches word prefixes of the name and category, combined with status', async () => {
    const q = await fresh();
    await q.enqueue({ nzb: nzb('1'), nzbPath: '/n/The.Show.S01E01.1080p.nzb', category: 'tv' });
    await q.enqueue({ nzb: nzb('2'), nzbPath: '/n/The.Show.S01E02.1080p.nzb', category: 'tv' });
    await q.enqueue({ nzb: nzb('3'), nzbPath: '/n/A.Movie.2024.2160p.nzb', category: 'movies' });
    const names = async (search: string, status?: 'pending' | 'failed') =>
      (await q.list({ limit: 20, offset: 0, search, status })).items.map((r) => r.name).sort();
    assert.deepEqual(await names('show'), ['The.Show.S01E01.1080p', 'The.Show.S01E02.1080p']);
    assert.deepEqual(await names('s01e02'), ['The.Show.S01E02.1080p']);
    assert.deepEqual(await names('show 1080'), ['The.Show.S01E01.1080p', 'The.Show.S01E02.1080p']);
    assert.deepEqual(await names('MOVIES'), ['A.Movie.2024.2160p']);
    assert.deepEqual(await names('nothing-like-this'), []);
    assert.deepEqual(await names('show', 'failed'), []);
    assert.equal((await q.list({ limit: 1, offset: 1, search: 'show' })).total, 2);
  });

  test('processing items cannot be deleted or restarted; others can, and restart resets retries', async () => {
    const q = await fresh();
    const a = await q.enqueue({ nzb: nzb('a'), nzbPath: 'a.nzb' });
    const b = await q.enqueue({ nzb: nzb('b'), nzbPath: 'b.nzb' });
    await q.claim(); // a
    await assert.rejects(q.remove(a.id), { code: 'IN_PROGRESS' });
    assert.deepEqual(await q.bulkRestart([a.id, b.id]), { restarted: 1, skipped: [a.id] });
    await q.fail(a.id, 'provider down', clock + 60_000);
    assert.equal((await q.get(a.id))?.status, 'retrying');
    assert.equal((await q.get(a.id))?.retryCount, 1);
    assert.deepEqual(await q.bulkRestart([a.id]), { restarted: 1, skipped: [] });
    assert.equal((await q.get(a.id))?.retryCount, 0);
    assert.equal((await q.get(a.id))?.status, 'pending');
    assert.deepEqual(await q.bulkRemove([a.id, b.id, 999]), { deleted: 2, skipped: [999] });
    await assert.rejects(q.nzb(a.id), { code: 'NO_SUCH_RECORD' });
    assert.equal((await q.stats()).total_queued, 0);
  });

  test('a retrying item waits for its time; recover puts processing items back', async () => {
    const q = await fresh();
    const a = await q.enqueue({ nzb: nzb('a'), nzbPath: 'a.nzb' });
    await q.claim();
    await q.fail(a.id, 'timeout', clock + 5000);
    assert.equal(await q.claim(), undefined, 'not due yet');
    assert.equal(await q.nextRetryAt(), clock + 5000);
    clock += 5000;
    assert.equal((await q.claim())?.id, a.id);
    assert.equal(await q.recover(), 1);
    assert.equal((await q.get(a.id))?.status, 'pending');
    assert.equal((await q.stats()).total_processing, 0);
  });

  test('clear removes only the given status, honouring older_than', async () => {
    const q = await fresh();
    const old = await q.enqueue({ nzb: nzb('o'), nzbPath: 'o.nzb' });
    await q.claim();
    await q.complete(old.id, { targetPath: '/complete/default/o', fileSize: 1 });
    clock += 10_000;
    const recent = await q.enqueue({ nzb: nzb('r'), nzbPath: 'r.nzb' });
    await q.claim();
    await q.complete(recent.id, { targetPath: '/complete/default/r', fileSize: 1 });
    const failed = await q.enqueue({ nzb: nzb('f'), nzbPath: 'f.nzb' });
    await q.claim();
    await q.fail(failed.id, 'bad', null);
    assert.deepEqual(await q.clear('completed', clock - 5000), { deleted: 1 });
    assert.equal(await q.get(old.id), undefined);
    assert.ok(await q.get(recent.id));
    assert.deepEqual(await q.clear('completed'), { deleted: 1 });
    assert.equal((await q.get(failed.id))?.status, 'failed');
    assert.deepEqual(await q.stats(), {
      total_queued: 1,
      total_processing: 0,
      total_completed: 0,
      total_failed: 1,
      total_pending: 0,
      total_retrying: 0,
    });
  });

  test('a repairing item is in the history, cannot be deleted or restarted, and recover puts it back', async () => {
    const q = await fresh();
    const a = await q.enqueue({ nzb: nzb('a'), nzbPath: 'a.nzb' });
    await q.markRepairing(a.id);
    assert.equal((await q.get(a.id))?.status, 'pending', 'only a claimed item is repaired');
    await q.claim();
    await q.markRepairing(a.id);
    assert.equal((await q.get(a.id))?.status, 'repairing');
    assert.deepEqual(
      (await q.history({ offset: 0, limit: 0 })).items.map((r) => r.id),
      [a.id],
    );
    assert.equal((await q.history({ offset: 0, limit: 0 })).total, 1);
    assert.deepEqual(
      (await q.active()).map((r) => r.id),
      [],
      'not in the SABnzbd queue',
    );
    await assert.rejects(q.remove(a.id), { code: 'IN_PROGRESS' });
    await assert.rejects(q.retry(a.id), { code: 'IN_PROGRESS' });
    assert.deepEqual(await q.bulkRestart([a.id]), { restarted: 0, skipped: [a.id] });
    assert.equal(await q.recover(), 1);
    assert.equal((await q.get(a.id))?.status, 'pending');
    assert.equal((await q.history({ offset: 0, limit: 0 })).total, 0);
  });
}
