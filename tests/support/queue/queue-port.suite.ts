/**
 * The queue port's tests (queue.port.ts: the operations that must be several writes at once) over any QueueStore:
 * run on LMDB by appliance/importer/queue-lmdb.store.test.ts and on PostgreSQL by
 * tests/integration/postgres/queue-pg.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueueStore } from '../../../appliance/importer/queue.port.js';
import { QueueService } from '../../../appliance/importer/queue.service.js';

/** Registers the tests; `open` gives each test an empty store of its own. */
export function queuePortSuite(open: () => Promise<QueueStore>): void {
  const nzb = (tag: string) => Buffer.from(`<nzb><file subject="${tag}"></file></nzb>`);
  const dirFor = (n: number) => (n === 1 ? '/complete/tv/Same.Name' : `/complete/tv/Same.Name (${n})`);

  test('two concurrent reservations of the same job name get different directories; a re-run keeps its own', async () => {
    const repo = await open();
    const queue = new QueueService(repo, () => ({ maxRetries: 0 }));
    const a = await queue.enqueue({ nzb: nzb('a'), nzbPath: 'Same.Name.nzb' });
    const b = await queue.enqueue({ nzb: nzb('b'), nzbPath: 'Same.Name.nzb' });
    const [pa, pb] = await Promise.all([
      queue.reserveJobDir(a.id, dirFor, () => false),
      queue.reserveJobDir(b.id, dirFor, () => false),
    ]);
    assert.deepEqual([pa, pb].sort(), ['/complete/tv/Same.Name', '/complete/tv/Same.Name (2)']);
    assert.equal((await repo.get(a.id))?.targetPath, pa, 'the item records the directory it holds');
    assert.equal(await queue.reserveJobDir(a.id, dirFor, () => false), pa, 'a re-run keeps its own directory');
    // Deleting the holder releases its directory for the next item of that name.
    await queue.remove(a.id);
    const c = await queue.enqueue({ nzb: nzb('c'), nzbPath: 'Same.Name.nzb' });
    assert.equal(await queue.reserveJobDir(c.id, dirFor, () => false), pa);
  });

  test('an item goes in with its NZB and leaves with it; removeMany takes only what allow agrees to', async () => {
    const repo = await open();
    const draft = (name: string) => ({
      nzbPath: `${name}.nzb`,
      name,
      category: null,
      priority: 0 as const,
      status: 'failed' as const,
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
    });
    const x = await repo.insert(draft('x'), { packed: Buffer.from('px'), hash: 'hash-x' });
    const y = await repo.insert({ ...draft('y'), status: 'pending' }, { packed: Buffer.from('py'), hash: 'hash-y' });
    assert.deepEqual(await repo.nzb(x.id), Buffer.from('px'));
    assert.equal(await repo.seenAs('hash-y'), y.id);
    assert.deepEqual(
      (await repo.removeMany([x.id, y.id], (r) => r.status === 'failed')).map((r) => r.id),
      [x.id],
    );
    assert.equal(await repo.get(x.id), undefined);
    assert.equal(await repo.nzb(x.id), undefined, 'the NZB went with its item');
    assert.equal(await repo.seenAs('hash-x'), x.id, 'the seen hash outlives the item (the scan skips it)');
    await repo.insert(draft('x'), { packed: Buffer.from('px'), hash: 'hash-x' });
    assert.equal(await repo.seenAs('hash-x'), x.id, 'the first id an NZB was queued under is kept');
    assert.equal((await repo.get(y.id))?.status, 'pending');
    const claimed = await repo.claimNext(2, (r) => ({ ...r, status: 'processing' }));
    assert.equal(claimed?.id, y.id);
    assert.equal(await repo.claimNext(2, (r) => ({ ...r, status: 'processing' })), undefined, 'never claimed twice');
  });
}
