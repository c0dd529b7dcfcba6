import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { AppError } from '../errors/app-error.js';
import { openStore } from '../store/index.js';
import { QueueAdmission } from './queue-admission.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';
import { QueueService } from './queue.service.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(limit: { value: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'spool-admission-'));
  const store = openStore({ rootPath: dir });
  const queue = new QueueService(new LmdbQueueStore(store), () => ({ maxRetries: 2, maxQueuedItems: limit.value }));
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return queue;
}

const nzb = (n: number) => Buffer.from(`<nzb><file subject="${n}"/></nzb>`);
const isQueueFull = (err: unknown) =>
  err instanceof AppError &&
  err.code === 'QUEUE_FULL' &&
  /queue is full: 2 items are waiting or importing and the limit \(import\.max_queued_items\) is 2/.test(err.message);

test('import.max_queued_items: a full queue refuses an add with QUEUE_FULL and stores nothing', async () => {
  const queue = setup({ value: 2 });
  await queue.enqueue({ nzb: nzb(1), nzbPath: 'a.nzb' });
  await queue.enqueue({ nzb: nzb(2), nzbPath: 'b.nzb' });
  await assert.rejects(queue.enqueue({ nzb: nzb(3), nzbPath: 'c.nzb' }), isQueueFull);
  assert.equal((await queue.stats()).total_queued, 2);
  // Nothing of the refused NZB was kept: a later scan does not skip it as "seen", and no id was consumed.
  const { nzbHash } = await import('./nzb-pack.js');
  assert.equal(await queue.seenAs(nzbHash(nzb(3))), undefined);
  const first = await queue.claim();
  assert.ok(first);
  // Processing counts as unfinished too: still full.
  await assert.rejects(queue.enqueue({ nzb: nzb(3), nzbPath: 'c.nzb' }), isQueueFull);
  await queue.complete(first.id, { targetPath: '/complete/a', fileSize: 1 });
  const third = await queue.enqueue({ nzb: nzb(3), nzbPath: 'c.nzb' });
  assert.equal(third.id, 3);
});

test('retrying items count as unfinished; failed and completed ones do not', async () => {
  const queue = setup({ value: 2 });
  const a = await queue.enqueue({ nzb: nzb(1), nzbPath: 'a.nzb' });
  const b = await queue.enqueue({ nzb: nzb(2), nzbPath: 'b.nzb' });
  await queue.fail(a.id, 'outage', Date.now() + 60_000);
  await assert.rejects(queue.enqueue({ nzb: nzb(3), nzbPath: 'c.nzb' }), isQueueFull);
  await queue.fail(b.id, 'bad', null);
  await queue.enqueue({ nzb: nzb(3), nzbPath: 'c.nzb' });
});

test('a burst of concurrent adds stops exactly at the limit', async () => {
  const queue = setup({ value: 5 });
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => queue.enqueue({ nzb: nzb(i), nzbPath: `n${i}.nzb` })),
  );
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
  assert.ok(results.every((r) => r.status === 'fulfilled' || (r.reason as AppError).code === 'QUEUE_FULL'));
  assert.equal((await queue.stats()).total_pending, 5);
});

test('0 means no limit, and a change of the setting applies to the next add', async () => {
  const limit = { value: 0 };
  const queue = setup(limit);
  for (let i = 0; i < 30; i++) await queue.enqueue({ nzb: nzb(i), nzbPath: `n${i}.nzb` });
  limit.value = 30;
  await assert.rejects(queue.enqueue({ nzb: nzb(99), nzbPath: 'x.nzb' }), (e: AppError) => e.code === 'QUEUE_FULL');
  limit.value = 31;
  await queue.enqueue({ nzb: nzb(99), nzbPath: 'x.nzb' });
});

test('the count and the insert of one add never interleave with another add, even with a slow store', async () => {
  let pending = 0;
  const tick = () => new Promise((r) => setImmediate(r));
  const store = {
    counts: async () => {
      await tick();
      return { pending, processing: 0, repairing: 0, retrying: 0, completed: 0, failed: 0 };
    },
  };
  const admission = new QueueAdmission(store, () => 3);
  const insert = async () => {
    await tick();
    await tick();
    pending++;
  };
  const results = await Promise.allSettled(Array.from({ length: 10 }, () => admission.admitted(insert)));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
  assert.equal(pending, 3);
});
