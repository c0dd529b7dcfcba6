/**
 * The queue port's reads and the runner's order over any QueueStore, item by item with chosen times: run on LMDB by
 * appliance/importer/queue-lmdb.store.test.ts and on PostgreSQL by tests/integration/postgres/queue-pg.test.ts,
 * so the PostgreSQL store's queries answer exactly as the LMDB index does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueueStore } from '../../../appliance/importer/queue.port.js';
import type { QueueRecord } from '../../../appliance/importer/queue.types.js';

let seq = 0;
const draft = (name: string, over: Partial<QueueRecord> = {}): Omit<QueueRecord, 'id'> => ({
  nzbPath: `/nzb/${name}.nzb`,
  name,
  category: null,
  priority: 0,
  status: 'pending',
  targetPath: null,
  fileSize: 0,
  retryCount: 0,
  maxRetries: 0,
  errorMessage: null,
  nextAttemptAt: null,
  contentHash: `hash-${name}`,
  createdAt: 1,
  updatedAt: 1,
  startedAt: null,
  completedAt: null,
  ...over,
});

async function add(repo: QueueStore, name: string, over: Partial<QueueRecord> = {}): Promise<number> {
  return (await repo.insert(draft(name, over), { packed: Buffer.from(name), hash: `h${++seq}` })).id;
}

const ids = (page: { items: QueueRecord[] }) => page.items.map((r) => r.id);
const claim = (now: number) => (r: QueueRecord) => ({ ...r, status: 'processing' as const, updatedAt: now });

/** Registers the tests; `open` gives each test an empty store of its own. */
export function queueReadsSuite(open: () => Promise<QueueStore>): void {
  test('history: newest finish first (completion, else last change), per category with * for none, totals', async () => {
    const repo = await open();
    const c1 = await add(repo, 'c1', { status: 'completed', category: 'tv', completedAt: 500, updatedAt: 900 });
    const f1 = await add(repo, 'f1', { status: 'failed', updatedAt: 600 });
    const r1 = await add(repo, 'r1', { status: 'repairing', category: 'tv', updatedAt: 700 });
    const c2 = await add(repo, 'c2', { status: 'completed', completedAt: 800, updatedAt: 800 });
    await add(repo, 'p1', { category: 'tv', updatedAt: 1000 });
    const all = await repo.history({ offset: 0, limit: 0 });
    assert.deepEqual([ids(all), all.total], [[c2, r1, f1, c1], 4]);
    const tv = await repo.history({ category: 'tv', offset: 0, limit: 0 });
    assert.deepEqual([ids(tv), tv.total], [[r1, c1], 2]);
    const none = await repo.history({ category: '*', offset: 0, limit: 10 });
    assert.deepEqual([ids(none), none.total], [[c2, f1], 2]);
    const page = await repo.history({ offset: 1, limit: 2 });
    assert.deepEqual([ids(page), page.total], [[r1, f1], 4]);
    assert.deepEqual(await repo.history({ category: 'movies', offset: 0, limit: 0 }), { items: [], total: 0 });
    await repo.update(c1, (r) => ({ ...r, status: 'pending', updatedAt: 1100 }));
    const after = await repo.history({ category: 'tv', offset: 0, limit: 0 });
    assert.deepEqual([ids(after), after.total], [[r1], 1]);
  });

  test('the runner takes due retries by due time, then pending by priority and age; paused items wait', async () => {
    const repo = await open();
    const low = await add(repo, 'low', { priority: -1 });
    const high = await add(repo, 'high', { priority: 1, paused: true });
    const normal = await add(repo, 'normal');
    const due100 = await add(repo, 'due100', { status: 'retrying', nextAttemptAt: 100 });
    await add(repo, 'paused50', { status: 'retrying', nextAttemptAt: 50, paused: true });
    const due300 = await add(repo, 'due300', { status: 'retrying', nextAttemptAt: 300 });
    assert.equal(await repo.nextRetryAt(), 100, 'a paused retry is not waited for');
    const order = [];
    for (let i = 0; i < 4; i++) order.push((await repo.claimNext(200, claim(200)))?.id);
    assert.deepEqual(order, [due100, normal, low, undefined]);
    assert.equal(await repo.nextRetryAt(), 300);
    assert.equal((await repo.claimNext(300, claim(300)))?.id, due300);
    assert.equal(await repo.nextRetryAt(), undefined);
    await repo.update(high, (r) => ({ ...r, paused: false }));
    assert.equal((await repo.claimNext(300, claim(300)))?.id, high, 'resumed, it runs');
    assert.equal(await repo.claimNext(10_000, claim(10_000)), undefined);
    assert.deepEqual(await repo.counts(), {
      pending: 0,
      processing: 5,
      repairing: 0,
      completed: 0,
      failed: 0,
      retrying: 1,
    });
  });

  test('idsWithStatus: oldest activity first, before a time; getMany keeps the order asked and skips gone ids', async () => {
    const repo = await open();
    const a = await add(repo, 'a', { status: 'failed', updatedAt: 30 });
    const b = await add(repo, 'b', { status: 'failed', updatedAt: 10 });
    const c = await add(repo, 'c', { status: 'failed', updatedAt: 20 });
    await add(repo, 'd', { updatedAt: 5 });
    assert.deepEqual(await repo.idsWithStatus('failed'), [b, c, a]);
    assert.deepEqual(await repo.idsWithStatus('failed', 25), [b, c]);
    assert.deepEqual(await repo.idsWithStatus('failed', 10), []);
    assert.deepEqual(await repo.idsWithStatus('completed'), []);
    assert.deepEqual(
      (await repo.getMany([c, 999, a, c])).map((r) => r.id),
      [c, a, c],
    );
    assert.equal(await repo.get(999), undefined);
    assert.equal(await repo.update(999, (r) => r), undefined);
    assert.equal(await repo.remove(999, () => true), undefined);
  });

  test('list: since is at or after, search by word prefixes with since and status, paging past the end', async () => {
    const repo = await open();
    const one = await add(repo, 'Alpha.One', { updatedAt: 100 });
    const two = await add(repo, 'Beta.Two', { category: 'Films', updatedAt: 200, status: 'failed' });
    const three = await add(repo, 'Alpha.Three', { updatedAt: 300, nzbPath: '/nzb/deep/Gamma.Release.nzb' });
    const since = await repo.list({ limit: 10, offset: 0, since: 200 });
    assert.deepEqual([ids(since), since.total], [[three, two], 2]);
    assert.equal((await repo.list({ limit: 10, offset: 0, since: 201 })).total, 1);
    const failedSince = await repo.list({ limit: 10, offset: 0, since: 100, status: 'failed' });
    assert.deepEqual([ids(failedSince), failedSince.total], [[two], 1]);
    const search = async (text: string, more: { since?: number; status?: 'pending' } = {}) => {
      const page = await repo.list({ limit: 10, offset: 0, search: text, ...more });
      return [ids(page), page.total];
    };
    assert.deepEqual(await search('alpha'), [[three, one], 2]);
    assert.deepEqual(await search('alpha', { since: 150 }), [[three], 1]);
    assert.deepEqual(await search('fil'), [[two], 1], 'the category is searched');
    assert.deepEqual(await search('gamma rel'), [[three], 1], "the NZB file's own name is searched");
    assert.deepEqual(await search('alpha one'), [[one], 1]);
    assert.deepEqual(await search('beta', { status: 'pending' }), [[], 0]);
    assert.deepEqual(await search('lpha'), [[], 0], 'prefixes, not substrings');
    assert.deepEqual(await search(' .. '), [[three, two, one], 3], 'no words: no search');
    const past = await repo.list({ limit: 10, offset: 5 });
    assert.deepEqual([ids(past), past.total], [[], 3]);
    const renamed = await repo.update(one, (r) => ({ ...r, name: 'Delta.One', nzbPath: '/nzb/Delta.One.nzb' }));
    assert.equal(renamed?.name, 'Delta.One');
    assert.deepEqual(await search('alpha'), [[three], 1], 'a changed name is searched by its new words');
    assert.deepEqual(await search('delta'), [[one], 1]);
  });
}
