import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { EventBus, type SpoolEvents } from '../events/index.js';
import { FencedOut } from '../errors/fenced-out.js';
import { memoryLogger, type Logger } from '../logging/logger.js';
import { openStore, type Store } from '../store/index.js';
import { sampleIndexes } from '../articles/index.js';
import { nonRetryableError, retryDelayMs, retryableError } from './import-errors.js';
import { ImportRunner, type ImportJob } from './import.runner.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';
import { QueueService } from './queue.service.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(
  job: ImportJob,
  opts: {
    workers?: number;
    maxRetries?: number;
    retryDelay?: (n: number) => number;
    logger?: Logger;
    afterBurst?: () => void;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'spool-runner-'));
  const store: Store = openStore({ rootPath: dir });
  const events = new EventBus<SpoolEvents>();
  const queue = new QueueService(
    new LmdbQueueStore(store),
    () => ({ maxRetries: opts.maxRetries ?? 2 }),
    Date.now,
    events,
  );
  const runner = new ImportRunner({
    queue,
    job,
    logger: opts.logger ?? memoryLogger(),
    workers: opts.workers ?? 2,
    intervalMs: 10 * 60_000, // far longer than a test may take (60 s): only waking makes these pass
    retryDelay: opts.retryDelay ?? (() => 20),
    afterBurst: opts.afterBurst,
  });
  // As appliance/app/importer.ts wires it: new work wakes the runner.
  events.on('queue.item.added', runner.wake);
  events.on('queue.item.changed', (e) => e.status === 'pending' && !e.paused && runner.wake());
  cleanups.push(async () => {
    await runner.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { queue, runner, events };
}

const nzb = (n: number) => Buffer.from(`<nzb>${n}</nzb>`);

/**
 * Waits for `check` (`what`, for the reader). No bound of its own: the runners' interval is past the test's timeout,
 * so only a runner that woke makes it true, and one that did not fails with the timeout.
 */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  void what;
  while (!(await check())) await new Promise((r) => setTimeout(r, 5));
}

test('never runs more than max_processor_workers imports at once, and wakes at once for new items', async () => {
  let running = 0;
  let peak = 0;
  const { queue, runner } = setup(async (item) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 30));
    running--;
    return { targetPath: `/complete/default/${item.name}`, fileSize: 1 };
  });
  runner.start();
  for (let i = 0; i < 7; i++) await queue.enqueue({ nzb: nzb(i), nzbPath: `n${i}.nzb` });
  await until(async () => (await queue.stats()).total_completed === 7, 'all completed');
  assert.equal(peak, 2);
  assert.equal((await queue.get(3))?.targetPath, '/complete/default/n2');
});

test('a transient failure retries after the back-off and then completes', async () => {
  let attempts = 0;
  const logger = memoryLogger();
  const { queue, runner, events } = setup(
    async () => {
      attempts++;
      if (attempts === 1) throw retryableError('provider down');
      return { targetPath: '/complete/default/x', fileSize: 5 };
    },
    { logger },
  );
  // The statuses as the queue announced them: 'retrying' lasts only the 20 ms back-off, too short to poll for on a
  // busy machine, so the test reads the announcements rather than sampling the store.
  const statuses: string[] = [];
  events.on('queue.item.changed', (e) => statuses.push(e.status));
  runner.start();
  const item = await queue.enqueue({ nzb: nzb(1), nzbPath: 'x.nzb' });
  await until(async () => (await queue.get(item.id))?.status === 'completed', 'completed after retry');
  assert.deepEqual(statuses, ['processing', 'retrying', 'processing', 'completed']);
  assert.ok(logger.lines.some((l) => l.includes('import failed') && l.includes('provider down')));
  assert.equal((await queue.get(item.id))?.retryCount, 1);
  assert.equal((await queue.get(item.id))?.errorMessage, null);
});

test('permanent failures fail at once; transient ones give up after max_retries with a clear message', async () => {
  const { queue, runner } = setup(
    async (item) => {
      throw item.name === 'broken'
        ? nonRetryableError('The NZB could not be read: bad XML')
        : retryableError('timeout');
    },
    { maxRetries: 2 },
  );
  runner.start();
  const broken = await queue.enqueue({ nzb: nzb(1), nzbPath: 'broken.nzb' });
  const flaky = await queue.enqueue({ nzb: nzb(2), nzbPath: 'flaky.nzb' });
  await until(async () => (await queue.get(flaky.id))?.status === 'failed', 'flaky failed');
  const b = (await queue.get(broken.id))!;
  assert.equal(b.status, 'failed');
  assert.equal(b.retryCount, 0);
  assert.equal(b.errorMessage, 'The NZB could not be read: bad XML');
  const f = (await queue.get(flaky.id))!;
  assert.equal(f.retryCount, 2);
  assert.equal(f.errorMessage, 'timeout (gave up after 3 attempts)');
});

test('stop aborts imports in progress and puts them back as pending, not failed', async () => {
  const { queue, runner } = setup(
    (_item, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      ),
  );
  runner.start();
  const item = await queue.enqueue({ nzb: nzb(1), nzbPath: 'slow.nzb' });
  await until(async () => (await queue.get(item.id))?.status === 'processing', 'processing');
  await runner.stop();
  assert.equal((await queue.get(item.id))?.status, 'pending');
  assert.equal((await queue.get(item.id))?.retryCount, 0);
});

test('back-off doubles per attempt up to the cap', () => {
  assert.deepEqual(
    [0, 1, 2, 3].map((n) => retryDelayMs(n)),
    [60_000, 120_000, 240_000, 480_000],
  );
  assert.equal(retryDelayMs(20), 3_600_000);
});

test('probe samples: first, last and the percentage spread over the file; 100% is every article', () => {
  assert.deepEqual(sampleIndexes(10, 100), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const s = sampleIndexes(100_000, 5, () => 0.5);
  assert.equal(s[0], 0);
  assert.equal(s[s.length - 1], 99_999);
  assert.ok(s.length >= 5000 && s.length <= 5002, `${s.length} indexes`);
  assert.deepEqual(sampleIndexes(1, 1), [0]);
  assert.deepEqual(sampleIndexes(0, 50), []);
});

test('a runner that lost the lead leaves its cut-short import to the new leader, which runs it once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-runner-'));
  const store: Store = openStore({ rootPath: dir });
  const events = new EventBus<SpoolEvents>();
  const queue = new QueueService(new LmdbQueueStore(store), () => ({ maxRetries: 2 }), Date.now, events);
  const hang = (_item: unknown, signal: AbortSignal) =>
    new Promise<never>((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
    );
  let release: () => void = () => undefined;
  let newLeaderRuns = 0;
  const runnerOf = (job: ImportJob) =>
    new ImportRunner({ queue, job, logger: memoryLogger(), workers: 1, intervalMs: 10 * 60_000 });
  const old = runnerOf(hang);
  const next = runnerOf(async (item) => {
    newLeaderRuns++;
    await new Promise<void>((r) => (release = r));
    return { targetPath: `/complete/default/${item.name}`, fileSize: 1 };
  });
  // Both wake on new or restarted work, as appliance/app/importer.ts wires each node's runner.
  for (const r of [old, next]) events.on('queue.item.changed', (e) => e.status === 'pending' && !e.paused && r.wake());
  cleanups.push(async () => {
    release();
    await Promise.all([old.stop(), next.stop()]);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  old.start();
  const item = await queue.enqueue({ nzb: nzb(1), nzbPath: 'handover.nzb' });
  old.wake();
  await until(async () => (await queue.get(item.id))?.status === 'processing', 'claimed by the old leader');
  // The new leader takes over while the old one is still importing: its start recovers and claims the item.
  next.start();
  await until(async () => newLeaderRuns === 1, 'claimed by the new leader');
  await old.stop({ handOver: true });
  assert.equal((await queue.get(item.id))?.status, 'processing', 'the old leader wrote nothing back');
  release();
  await until(async () => (await queue.get(item.id))?.status === 'completed', 'completed');
  await next.whenIdle();
  assert.equal(newLeaderRuns, 1);
});

test('imports run in the async context start ran in, whoever wakes the runner (the leader term: the fence)', async () => {
  const term = new AsyncLocalStorage<string>();
  const seen: (string | undefined)[] = [];
  const { queue, runner } = setup(async (item) => {
    seen.push(term.getStore());
    return { targetPath: `/complete/default/${item.name}`, fileSize: 1 };
  });
  term.run('term 1', () => runner.start());
  // queued (and so woken) from outside that context, as a route or a notification from another node does
  await term.run('a route', () => queue.enqueue({ nzb: nzb(1), nzbPath: 'one.nzb' }));
  await until(async () => (await queue.stats()).total_completed === 1, 'completed');
  await runner.stop();
  term.run('term 2', () => runner.start());
  await queue.enqueue({ nzb: nzb(2), nzbPath: 'two.nzb' });
  await until(async () => (await queue.stats()).total_completed === 2, 'completed again');
  assert.deepEqual(seen, ['term 1', 'term 2']);
});

test('a write refused because another node leads (FencedOut) is not written back as a failure and not logged', async () => {
  const logger = memoryLogger();
  const { queue, runner } = setup(
    async () => {
      throw new FencedOut(1, 2);
    },
    { logger },
  );
  runner.start();
  const item = await queue.enqueue({ nzb: nzb(1), nzbPath: 'one.nzb' });
  await until(async () => runner.running === 0 && (await queue.get(item.id))?.status === 'processing', 'settled');
  await runner.whenIdle();
  assert.equal((await queue.get(item.id))?.status, 'processing', "left for the new leader's recovery");
  assert.deepEqual(
    logger.lines.filter((l) => l.includes('"level":"error"') || l.includes('import failed')),
    [],
  );
});

test('after a burst of imports, once idle, the runner calls afterBurst once (memory is given back then)', async () => {
  let release: (running: number) => void = () => undefined;
  const released = new Promise<number>((r) => (release = r));
  let calls = 0;
  let completedAtCall = -1;
  const { queue, runner } = setup(async (item) => ({ targetPath: `/complete/default/${item.nzbPath}`, fileSize: 1 }), {
    afterBurst: () => {
      calls++;
      void queue.stats().then((s) => {
        completedAtCall = s.total_completed;
        release(runner.running);
      });
    },
  });
  // the runner's timer does not hold the process open (a server stopping must not wait for it): this test does
  const keepAlive = setInterval(() => undefined, 1000);
  runner.start();
  for (let i = 0; i < 5; i++) await queue.enqueue({ nzb: nzb(i), nzbPath: `b${i}.nzb` });
  const running = await released.finally(() => clearInterval(keepAlive));
  assert.equal(running, 0);
  assert.equal(completedAtCall, 5);
  assert.equal(calls, 1);
});
