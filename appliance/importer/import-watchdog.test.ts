import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { EventBus, type SpoolEvents } from '../events/index.js';
import { memoryLogger } from '../logging/logger.js';
import { openStore } from '../store/index.js';
import { ImportRunner, type ImportJob } from './import.runner.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';
import { QueueService } from './queue.service.js';

const MINUTE = 60_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A runner whose watchdog runs on a ManualClock, with import.stuck_timeout_minutes = `timeout.minutes`. */
function setup(job: ImportJob, timeout: { minutes: number }, maxRetries = 2) {
  const dir = mkdtempSync(join(tmpdir(), 'spool-watchdog-'));
  const store = openStore({ rootPath: dir });
  const clock = new ManualClock(1_700_000_000_000);
  const events = new EventBus<SpoolEvents>();
  const queue = new QueueService(new LmdbQueueStore(store), () => ({ maxRetries }), clock.now, events);
  const logger = memoryLogger();
  const runner = new ImportRunner({
    queue,
    job,
    logger,
    workers: 1,
    intervalMs: 3_600_000,
    retryDelay: () => 3_600_000, // a retry stays 'retrying' for the test to see
    now: clock.now,
    clock,
    stuckTimeoutMs: () => timeout.minutes * MINUTE,
  });
  events.on('queue.item.added', runner.wake);
  events.on('import.progress', (e) => runner.progress(e.id));
  cleanups.push(async () => {
    await runner.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  runner.start();
  return { queue, runner, clock, events, logger };
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

/** An import that waits until it is aborted (as a real one blocked on a silent provider does). */
const hangsUntilAborted: ImportJob = (_item, signal) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

test('an import with no progress for stuck_timeout_minutes is aborted and retried with the reason', async () => {
  let signal: AbortSignal | undefined;
  const { queue, clock, logger } = setup(
    (item, s) => {
      signal = s;
      return hangsUntilAborted(item, s);
    },
    { minutes: 30 },
  );
  const item = await queue.enqueue({ nzb: Buffer.from('<nzb/>'), nzbPath: 'Stuck.nzb' });
  await until(async () => (await queue.get(item.id))?.status === 'processing' && signal !== undefined, 'claimed');
  await clock.advance(29 * MINUTE);
  assert.equal((await queue.get(item.id))?.status, 'processing', 'not stalled before the timeout');
  await clock.advance(1 * MINUTE);
  await until(async () => (await queue.get(item.id))?.status === 'retrying', 'put back for a retry');
  const after = await queue.get(item.id);
  assert.equal(signal?.aborted, true, 'the import was aborted');
  assert.match(after?.errorMessage ?? '', /^No progress for 30 minutes/);
  assert.equal(after?.retryCount, 1);
  assert.equal(after?.nextAttemptAt, clock.now() + 3_600_000, 'the usual back-off');
  assert.ok(logger.lines.some((l) => /import stalled/.test(l) && /warn/i.test(l)));
});

test('an import that ignores the abort still leaves processing; with no retries left it fails', async () => {
  let release: () => void = () => undefined;
  const ignoresAbort: ImportJob = () => new Promise((_, reject) => (release = () => reject(new Error('late'))));
  const { queue, clock, runner } = setup(ignoresAbort, { minutes: 5 }, 0);
  cleanups.push(async () => release()); // runs before the runner's stop, which waits for its imports
  const item = await queue.enqueue({ nzb: Buffer.from('<nzb/>'), nzbPath: 'Deaf.nzb' });
  await until(async () => (await queue.get(item.id))?.status === 'processing', 'claimed');
  await clock.advance(5 * MINUTE);
  await until(async () => (await queue.get(item.id))?.status === 'failed', 'failed for good');
  assert.match((await queue.get(item.id))?.errorMessage ?? '', /No progress for 5 minutes.*gave up after 1 attempts/);
  assert.equal(runner.running, 0, 'the worker is free again');
});

test('an import that keeps making progress is left alone however long it runs', async () => {
  let finish: () => void = () => undefined;
  let aborted = false;
  const { queue, clock, events } = setup(
    (item, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => (aborted = true));
        finish = () => resolve({ targetPath: `/complete/default/${item.name}`, fileSize: 1 });
      }),
    { minutes: 30 },
  );
  const item = await queue.enqueue({ nzb: Buffer.from('<nzb/>'), nzbPath: 'Long.nzb' });
  await until(async () => (await queue.get(item.id))?.status === 'processing', 'claimed');
  for (let i = 0; i < 12; i++) {
    await clock.advance(20 * MINUTE);
    events.emit('import.progress', { id: item.id, stage: 'layouts', done: i, total: 12 });
  }
  assert.equal((await queue.get(item.id))?.status, 'processing');
  assert.equal(aborted, false);
  finish();
  await until(async () => (await queue.get(item.id))?.status === 'completed', 'completed');
});

test('stuck_timeout_minutes 0 turns the watchdog off; turning it on applies to the import already running', async () => {
  const timeout = { minutes: 0 };
  const { queue, clock } = setup(hangsUntilAborted, timeout);
  const item = await queue.enqueue({ nzb: Buffer.from('<nzb/>'), nzbPath: 'Slow.nzb' });
  await until(async () => (await queue.get(item.id))?.status === 'processing', 'claimed');
  await clock.advance(24 * 60 * MINUTE);
  assert.equal((await queue.get(item.id))?.status, 'processing', 'off: never stopped');
  timeout.minutes = 10;
  await clock.advance(11 * MINUTE);
  await until(async () => (await queue.get(item.id))?.status === 'retrying', 'stopped once on');
});

test('a repair at import that stalls is aborted and retried too: no item stays repairing', async () => {
  let signal: AbortSignal | undefined;
  const ref: { queue?: QueueService } = {};
  const { queue, clock } = setup(
    async (item, s) => {
      signal = s;
      await ref.queue!.markRepairing(item.id); // the job is written; its repair then hangs on a silent provider
      return hangsUntilAborted(item, s);
    },
    { minutes: 30 },
  );
  ref.queue = queue;
  const item = await queue.enqueue({ nzb: Buffer.from('<nzb/>'), nzbPath: 'Repair.nzb' });
  await until(async () => (await queue.get(item.id))?.status === 'repairing' && signal !== undefined, 'repairing');
  await clock.advance(30 * MINUTE);
  await until(async () => (await queue.get(item.id))?.status === 'retrying', 'put back for a retry');
  assert.equal(signal?.aborted, true, 'the repair was aborted');
  assert.match((await queue.get(item.id))?.errorMessage ?? '', /^No progress for 30 minutes/);
});
