import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { memoryLogger } from '../logging/logger.js';
import { openStore } from '../store/index.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';
import { QueueService } from './queue.service.js';
import { startWatchDir } from './watch-dir.js';

const nzb = (tag: string) =>
  `<nzb><file subject="${tag}"><segments><segment bytes="10" number="1">${tag}@x</segment></segments></file></nzb>`;

test('import.watch_dir is scanned every watch_interval_seconds; each NZB is queued once; empty turns it off', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-watch-'));
  const store = openStore({ rootPath: join(dir, 'db') });
  const watched = join(dir, 'watched');
  const clock = new ManualClock();
  const settings = { watch_dir: watched, watch_interval_seconds: 30 };
  const logger = memoryLogger();
  try {
    const queue = new QueueService(
      new LmdbQueueStore(store),
      () => ({ maxRetries: 0 }),
      () => clock.now(),
    );
    const names = async () => (await queue.list({ limit: 0, offset: 0 })).items.map((i) => i.nzbPath).sort();
    const watcher = startWatchDir(queue, () => settings, logger, clock);
    await watcher.idle();
    assert.deepEqual(await names(), [], 'a missing folder is reported, not fatal');
    assert.ok(logger.lines.some((l) => l.includes('watch folder')));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(watched);
    writeFileSync(join(watched, 'First.nzb'), nzb('first'));
    await clock.advance(29_000);
    await watcher.idle();
    assert.deepEqual(await names(), [], 'not before the interval');
    await clock.advance(1_000);
    await watcher.idle();
    assert.deepEqual(await names(), [join(watched, 'First.nzb')]);
    writeFileSync(join(watched, 'Second.nzb'), nzb('second'));
    await clock.advance(30_000);
    await watcher.idle();
    assert.deepEqual(
      await names(),
      [join(watched, 'First.nzb'), join(watched, 'Second.nzb')],
      'First is not queued again',
    );
    settings.watch_dir = '';
    writeFileSync(join(watched, 'Third.nzb'), nzb('third'));
    await clock.advance(60_000);
    await watcher.idle();
    assert.equal((await names()).length, 2, 'an empty watch_dir watches nothing');
    watcher.stop();
    assert.equal(clock.timers, 0);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a full queue (import.max_queued_items) leaves a watched NZB in place for the next walk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-watch-full-'));
  const store = openStore({ rootPath: join(dir, 'db') });
  const clock = new ManualClock();
  const settings = { watch_dir: dir, watch_interval_seconds: 30 };
  try {
    const queue = new QueueService(
      new LmdbQueueStore(store),
      () => ({ maxRetries: 0, maxQueuedItems: 1 }),
      () => clock.now(),
    );
    writeFileSync(join(dir, 'A.nzb'), nzb('a'));
    writeFileSync(join(dir, 'B.nzb'), nzb('b'));
    const names = async () => (await queue.list({ limit: 0, offset: 0 })).items.map((i) => i.nzbPath).sort();
    const watcher = startWatchDir(queue, () => settings, memoryLogger(), clock);
    await watcher.idle();
    assert.deepEqual(await names(), [join(dir, 'A.nzb')], 'B refused: the queue holds one item');
    await clock.advance(30_000);
    await watcher.idle();
    assert.deepEqual(await names(), [join(dir, 'A.nzb')], 'still full: B waits');
    const a = await queue.claim();
    await queue.complete(a!.id, { targetPath: '/complete/default/A', fileSize: 1 });
    await clock.advance(30_000);
    await watcher.idle();
    assert.deepEqual(await names(), [join(dir, 'A.nzb'), join(dir, 'B.nzb')], 'queued by the walk after the drain');
    watcher.stop();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
