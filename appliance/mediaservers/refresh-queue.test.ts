import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { MediaServerError, type FolderChange, type MediaServerClient } from './media-server.client.js';
import { RefreshQueue, RETRY_DELAYS_MS, type BatchOutcome } from './refresh-queue.js';

function fakeClient(answers: ('ok' | 'fail' | 'hang')[]) {
  const calls: FolderChange[][] = [];
  const client: MediaServerClient = {
    test: async () => ({ ok: true, message: '', locations: [] }),
    refresh: (changes, signal) => {
      calls.push([...changes]);
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer === 'ok') return Promise.resolve();
      if (answer === 'fail') return Promise.reject(new MediaServerError('jf answered HTTP 401: check the token', 401));
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new MediaServerError('jf did not answer in time'))),
      );
    },
  };
  return { client, calls };
}

function queueWith(answers: ('ok' | 'fail' | 'hang')[], debounceMs = 1000) {
  const clock = new ManualClock(0);
  const outcomes: BatchOutcome[] = [];
  const { client, calls } = fakeClient(answers);
  const queue = new RefreshQueue(
    { name: 'jf', kind: 'jellyfin' },
    { client, clock, settings: () => ({ debounceMs, timeoutMs: 10_000 }), onOutcome: (o) => outcomes.push(o) },
  );
  return { clock, outcomes, calls, queue };
}

test('a burst waits for the debounce and goes as one batch, each folder once', async () => {
  const { clock, outcomes, calls, queue } = queueWith(['ok']);
  queue.add({ folder: '/m/A', kind: 'Created', cause: 'import' });
  queue.add({ folder: '/m/B', kind: 'Deleted', cause: 'delete' });
  queue.add({ folder: '/m/A', kind: 'Modified', cause: 'repair', recordId: 7 });
  queue.add({ folder: '/m/C', kind: 'Deleted', cause: 'repair', recordId: 8 });
  queue.add({ folder: '/m/C', kind: 'Created', cause: 'repair', recordId: 8 });
  await clock.advance(999);
  assert.equal(calls.length, 0, 'nothing before the debounce ends');
  await clock.advance(1);
  assert.deepEqual(calls, [
    [
      { folder: '/m/A', kind: 'Created' },
      { folder: '/m/B', kind: 'Deleted' },
      { folder: '/m/C', kind: 'Modified' },
    ],
  ]);
  assert.equal(outcomes.length, 1);
  assert.equal(outcomes[0]!.state, 'done');
  assert.deepEqual(
    outcomes[0]!.repairs.map((r) => r.recordId),
    [7, 8, 8],
  );
  assert.deepEqual(outcomes[0]!.causes.sort(), ['delete', 'import', 'repair']);
});

test('a failing server is retried after 5 s, 30 s, 2 min and 10 min, then given up; add never waits', async () => {
  const { clock, outcomes, calls, queue } = queueWith(['fail']);
  queue.add({ folder: '/m/A', kind: 'Modified', cause: 'repair' });
  await clock.advance(1000);
  assert.equal(calls.length, 1);
  for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
    await clock.advance(delay - 1);
    assert.equal(calls.length, i + 1, `no retry before ${delay} ms`);
    await clock.advance(1);
    assert.equal(calls.length, i + 2);
  }
  assert.deepEqual(
    outcomes.map((o) => o.state),
    ['retrying', 'retrying', 'retrying', 'retrying', 'failed'],
  );
  assert.match(outcomes.at(-1)!.error!, /401/);
  await clock.advance(3_600_000);
  assert.equal(calls.length, 5, 'nothing after giving up');
  assert.equal(clock.timers, 0);
});

test('a server that hangs is cut at the timeout and retried; it answers the next time', async () => {
  const { clock, outcomes, calls, queue } = queueWith(['hang', 'ok'], 0);
  queue.add({ folder: '/m/A', kind: 'Modified', cause: 'repair' });
  await clock.advance(0);
  assert.equal(calls.length, 1);
  await clock.advance(10_000);
  assert.equal(outcomes[0]!.state, 'retrying');
  assert.match(outcomes[0]!.error!, /did not answer in time/);
  await clock.advance(RETRY_DELAYS_MS[0]!);
  assert.equal(outcomes[1]!.state, 'done');
  assert.deepEqual(calls[1], [{ folder: '/m/A', kind: 'Modified' }]);
});

test('close stops every timer and request', async () => {
  const { clock, calls, queue } = queueWith(['fail']);
  queue.add({ folder: '/m/A', kind: 'Modified', cause: 'repair' });
  await clock.advance(1000);
  queue.close();
  queue.add({ folder: '/m/B', kind: 'Modified', cause: 'repair' });
  await clock.advance(3_600_000);
  assert.equal(calls.length, 1);
  assert.equal(clock.timers, 0);
});
