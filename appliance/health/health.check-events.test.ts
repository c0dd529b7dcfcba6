import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { HealthCheckDoneEvent } from '../events/index.js';
import { healthHarness, type HealthHarness } from '../../tests/support/health/harness.js';

// Each check's end is announced as health.check.done (the metrics count checks by outcome): its verdict, or
// `inconclusive` when the providers could not answer, however the record's status reads afterwards.
let h: HealthHarness;
afterEach(() => h?.close());

async function checkAndListen(path: string): Promise<HealthCheckDoneEvent[]> {
  const seen: HealthCheckDoneEvent[] = [];
  const off = h.events.on('health.check.done', (e) => seen.push(e));
  const r = await h.health.service.check(path, undefined, true);
  await h.drain();
  off();
  return seen.map((e) => (assert.equal(e.record_id, r.id), e));
}

test('a check with a verdict announces it', async () => {
  h = await healthHarness();
  const good = await h.addFile('Good', 20);
  assert.deepEqual(
    (await checkAndListen(good)).map((e) => e.outcome),
    ['healthy'],
  );
  const rotten = await h.addFile('Rotten', 3);
  h.articles.damaged.add('Rotten-1');
  assert.deepEqual(
    (await checkAndListen(rotten)).map((e) => e.outcome),
    ['corrupted'],
  );
});

test('an outage is announced as inconclusive, not as the healthy status the record goes back to', async () => {
  h = await healthHarness({ max_retries: 2 });
  const path = await h.addFile('Down', 20);
  assert.deepEqual(
    (await checkAndListen(path)).map((e) => e.outcome),
    ['healthy'],
  );
  h.articles.down = true;
  assert.deepEqual(
    (await checkAndListen(path)).map((e) => e.outcome),
    ['inconclusive'],
  );
  assert.equal((await h.health.service.byPath(path)).status, 'healthy');
});
