import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore, type Store } from '../store/index.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';
import { QueueService } from './queue.service.js';

// The queue's port (queue.port.ts) on LMDB: the operations that must be several writes at once.
let dir: string;
const stores: Store[] = [];
before(() => (dir = mkdtempSync(join(tmpdir(), 'spool-queue-port-'))));
after(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each test its own store, so ids and the runnable order start afresh. */
function fresh(): LmdbQueueStore {
  const s = openStore({ rootPath: mkdtempSync(join(dir, 'q-')) });
  stores.push(s);
  return new LmdbQueueStore(s);
}

const nzb = (tag: string) => Buffer.from(`<nzb><file subject="${tag}"></file></nzb>`);
const dirFor = (n: number) => (n === 1 ? '/complete/tv/Same.Name' : `/complete/tv/Same.Name (${n})`);

test('two concurrent reservations of the same job name get different directories; a re-run keeps its own', async () => {
  const repo = fresh();
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
  const repo = fresh();
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
  assert.equal((await repo.get(y.id))?.status, 'pending');
  const claimed = await repo.claimNext(2, (r) => ({ ...r, status: 'processing' }));
  assert.equal(claimed?.id, y.id);
  assert.equal(await repo.claimNext(2, (r) => ({ ...r, status: 'processing' })), undefined, 'never claimed twice');
});
