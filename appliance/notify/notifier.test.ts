import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../clock/manual-clock.js';
import { DEFAULTS } from '../config/defaults.js';
import type { NotificationsConfig } from '../config/schema.js';
import { createLogger } from '../logging/logger.js';
import type { TargetAddress } from './format.js';
import type { Notice } from './notice.js';
import { Notifier } from './notifier.js';
import { NOTIFY_KINDS } from './notify.wire.js';

const logger = createLogger('test', 'error');

function settings(over: Partial<NotificationsConfig> = {}): NotificationsConfig {
  return {
    ...structuredClone(DEFAULTS.notifications),
    enabled: true,
    min_interval_seconds: 0,
    targets: [
      { name: 'hook', type: 'webhook', url: 'http://h/x', token: '', enabled: true, events: [...NOTIFY_KINDS] },
    ],
    ...over,
  };
}

const notice = (message: string, kind: Notice['kind'] = 'import_failed'): Notice => ({
  kind,
  title: 't',
  message,
  severity: 'error',
  time: 0,
  details: {},
});

/** A sender that records every try and fails the first `failures` of them. */
function flaky(failures: number) {
  const tries: { at: number; message: string }[] = [];
  const clock = new ManualClock(0);
  const send = (_t: TargetAddress, n: Notice) => {
    tries.push({ at: clock.now(), message: n.message });
    return tries.length <= failures ? Promise.reject(new Error('HTTP 500')) : Promise.resolve();
  };
  return { tries, clock, send };
}

test('a failed delivery is retried after 2 s, 10 s and 60 s, then given up', async () => {
  const { tries, clock, send } = flaky(10);
  const n = new Notifier({ settings: () => settings(), send, clock, logger });
  n.notify(notice('one'));
  await clock.advance(0);
  assert.deepEqual(
    tries.map((t) => t.at),
    [0],
  );
  await clock.advance(2_000);
  await clock.advance(10_000);
  await clock.advance(60_000);
  assert.deepEqual(
    tries.map((t) => t.at),
    [0, 2_000, 12_000, 72_000],
  );
  await clock.advance(600_000);
  assert.equal(tries.length, 4, 'no fifth try');
  assert.equal(n.waiting('hook'), 0);
});

test('a target that fails once gets the notice on the retry, and the next notice after it', async () => {
  const { tries, clock, send } = flaky(1);
  const n = new Notifier({ settings: () => settings(), send, clock, logger });
  n.notify(notice('one'));
  n.notify(notice('two', 'disk_full'));
  await clock.advance(1_999);
  assert.deepEqual(
    tries.map((t) => t.message),
    ['one'],
  );
  await clock.advance(1);
  assert.deepEqual(
    tries.map((t) => t.message),
    ['one', 'one', 'two'],
  );
});

test('notices of one kind within min_interval_seconds go out as one "and N more" when the interval ends', async () => {
  const { tries, clock, send } = flaky(0);
  const n = new Notifier({ settings: () => settings({ min_interval_seconds: 60 }), send, clock, logger });
  n.notify(notice('first'));
  await clock.advance(10_000);
  n.notify(notice('second'));
  n.notify(notice('third'));
  n.notify(notice('other kind', 'disk_full'));
  await clock.advance(0);
  assert.deepEqual(
    tries.map((t) => t.message),
    ['first', 'other kind'],
  );
  await clock.advance(49_999);
  assert.equal(tries.length, 2);
  await clock.advance(1);
  assert.deepEqual(
    tries.map((t) => [t.at, t.message]),
    [
      [0, 'first'],
      [10_000, 'other kind'],
      [60_000, 'third (and 1 more)'],
    ],
  );
});

test('a hanging target never delays notify, and its queue is bounded: the oldest are dropped', async () => {
  const clock = new ManualClock(0);
  let started = 0;
  const hang = () => {
    started++;
    return new Promise<void>(() => undefined);
  };
  const n = new Notifier({ settings: () => settings({ queue_size: 3 }), send: hang, clock, logger });
  for (let i = 0; i < 10; i++) {
    const result: unknown = n.notify(notice(`n${i}`));
    assert.equal(result, undefined, 'notify returns nothing to await');
  }
  assert.equal(started, 1, 'the first send started within notify, the rest wait');
  assert.equal(n.waiting('hook'), 3);
  n.close();
});

test('only enabled targets that want the kind get it; nothing at all while notifications are off', async () => {
  const { tries, clock, send } = flaky(0);
  let s = settings({
    targets: [
      { name: 'a', type: 'webhook', url: 'http://a', token: '', enabled: true, events: ['disk_full'] },
      { name: 'b', type: 'webhook', url: 'http://b', token: '', enabled: false, events: [...NOTIFY_KINDS] },
    ],
  });
  const n = new Notifier({ settings: () => s, send, clock, logger });
  n.notify(notice('import', 'import_failed'));
  n.notify(notice('disk', 'disk_full'));
  await clock.advance(0);
  assert.deepEqual(
    tries.map((t) => t.message),
    ['disk'],
  );
  s = { ...s, enabled: false };
  n.notify(notice('disk again', 'disk_full'));
  await clock.advance(0);
  assert.equal(tries.length, 1);
});

test('test() answers the target error without retrying', async () => {
  const { tries, clock, send } = flaky(1);
  const n = new Notifier({ settings: () => settings(), send, clock, logger });
  assert.deepEqual(await n.test({ type: 'ntfy', url: 'http://n/t', token: '' }), { ok: false, error: 'HTTP 500' });
  assert.deepEqual(await n.test({ type: 'ntfy', url: 'http://n/t', token: '' }), { ok: true, error: null });
  await clock.advance(120_000);
  assert.equal(tries.length, 2);
});
