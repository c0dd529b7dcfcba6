import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { memoryLogger } from '../logging/logger.js';
import { openStore } from '../store/index.js';
import { startFailedRetention } from './failed-retention.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';
import { QueueService } from './queue.service.js';

const HOUR = 3600_000;
const nzb = (tag: string) =>
  Buffer.from(
    `<nzb><file subject="${tag}"><segments><segment bytes="10" number="1">${tag}@x</segment></segments></file></nzb>`,
  );

test('import.failed_item_retention_hours: failed items leave the queue that long after they failed; 0 keeps them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-retention-'));
  const store = openStore({ rootPath: dir });
  const clock = new ManualClock();
  let hours = 24;
  try {
    const queue = new QueueService(
      new LmdbQueueStore(store),
      () => ({ maxRetries: 0 }),
      () => clock.now(),
    );
    const failNew = async (tag: string) => {
      const item = await queue.enqueue({ nzb: nzb(tag), nzbPath: `/n/${tag}.nzb` });
      await queue.claim();
      await queue.fail(item.id, 'broken', null);
      return item.id;
    };
    const old = await failNew('old');
    await clock.advance(20 * HOUR);
    const recent = await failNew('recent');
    const pending = await queue.enqueue({ nzb: nzb('pending'), nzbPath: '/n/pending.nzb' });
    const stop = startFailedRetention(queue, () => hours, memoryLogger(), clock);
    assert.ok(await queue.get(old), 'at start: 20 h old, within 24 h');
    await clock.advance(5 * HOUR); // old is now 25 h past its failure
    assert.equal(await queue.get(old), undefined, 'past retention: removed');
    assert.ok(await queue.get(recent), 'recent failure kept');
    assert.ok(await queue.get(pending.id), 'other statuses are never touched');
    hours = 0;
    await clock.advance(48 * HOUR);
    assert.ok(await queue.get(recent), '0 keeps failed items');
    stop();
    assert.equal(clock.timers, 0, 'stopping cancels the sweep');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
