import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../clock/manual-clock.js';
import { DEFAULTS } from '../config/defaults.js';
import type { ConfigService } from '../config/index.js';
import type { SpoolConfig } from '../config/schema.js';
import { EventBus, type SpoolEvents } from '../events/index.js';
import type { HealthDomain } from '../health/index.js';
import type { ImporterDomain } from '../importer/index.js';
import { createLogger } from '../logging/logger.js';
import { Notifier, NOTIFY_KINDS, type Notice } from '../notify/index.js';
import { wireNotifications } from './notifications.js';

const logger = createLogger('test', 'error');

/** The app's wiring over a real bus, with a target that never answers, and what reached the sender. */
function wired(enabled = true) {
  let cfg: SpoolConfig = {
    ...structuredClone(DEFAULTS),
    notifications: {
      ...structuredClone(DEFAULTS.notifications),
      enabled,
      min_interval_seconds: 0,
      targets: [
        { name: 'hang', type: 'webhook', url: 'http://h', token: '', enabled: true, events: [...NOTIFY_KINDS] },
      ],
    },
  };
  const config = { get: () => cfg } as unknown as ConfigService;
  const events = new EventBus<SpoolEvents>(logger);
  const clock = new ManualClock(0);
  const sent: Notice[] = [];
  const notifier = new Notifier({
    settings: () => cfg.notifications,
    send: (_t, n) => {
      sent.push(n);
      return new Promise<void>(() => undefined);
    },
    clock,
    logger,
  });
  const importer = {
    queue: { get: () => Promise.resolve({ errorMessage: 'Articles missing' }) },
  } as unknown as ImporterDomain;
  const health = {
    service: { stats: () => Promise.resolve({ pending: 0 }) },
  } as unknown as HealthDomain;
  const stop = wireNotifications({ events, config, notifier, importer, health, clock, logger });
  const setConfig = (next: Partial<SpoolConfig['notifications']>) => {
    cfg = { ...cfg, notifications: { ...cfg.notifications, ...next } };
    events.emit('config.changed', { paths: ['notifications.enabled'] });
  };
  return { events, clock, sent, notifier, stop, setConfig };
}

test('a subscriber only hands the notice over: emit returns at once though the target never answers', async () => {
  const w = wired();
  const repair = {
    record_id: 1,
    path: '/complete/tv/S/e.mkv',
    manual: false,
    reason: 'no arr',
    will_retry: false,
    method: 'arr' as const,
  };
  for (let i = 0; i < 3; i++) {
    const result: unknown = w.events.emit('repair.failed', repair);
    assert.equal(result, undefined);
  }
  w.events.emit('provider.state.changed', {
    id: 'news',
    health: 'blocked',
    reason: 'unreachable',
    state: 'cooling_down',
    change: 'breaker_opened',
    last_error: 'ECONNREFUSED',
    allowed_connections: null,
    max_connections: 4,
    retry_at: null,
  });
  w.events.emit('disk.full', { where: 'PUT /webdav/x', error: 'ENOSPC' });
  assert.equal(w.sent.length, 1, 'the first notice is being sent (and hangs)');
  assert.equal(w.sent[0]!.kind, 'repair_failed');
  assert.equal(w.notifier.waiting('hang'), 5, 'the rest wait behind it');
  w.stop();
  w.notifier.close();
});

test('a queue item that fails gives an import_failed notice with its error', async () => {
  const w = wired();
  w.events.emit('queue.item.changed', {
    id: 7,
    name: 'Show.S01E01',
    category: 'tv',
    status: 'failed',
    paused: false,
    previous_status: 'processing',
  });
  await w.clock.advance(0);
  assert.equal(w.sent[0]?.kind, 'import_failed');
  assert.equal(w.sent[0]?.message, 'Articles missing');
  w.stop();
  w.notifier.close();
});

test('stream stalls are listened to only while notifications are enabled', async () => {
  const w = wired(false);
  assert.equal(w.events.hasListeners('stream.progress'), false);
  assert.equal(w.events.hasListeners('pool.metrics.tick'), false);
  w.setConfig({ enabled: true, stall_seconds: 10 });
  assert.equal(w.events.hasListeners('stream.progress'), true);
  w.events.emit('stream.opened', {
    stream_id: '1',
    path: '/complete/tv/S/e.mkv',
    via: 'webdav',
    offset: 0,
    size: 1,
    client: {},
  });
  const progress = { stream_id: '1', bytes_sent: 1, position: 1, ttfb_ms: 5, stalls: 1 };
  w.events.emit('stream.progress', { ...progress, stalled_ms: 2_000 });
  w.events.emit('stream.progress', { ...progress, stalled_ms: 14_000 });
  assert.deepEqual(
    w.sent.map((n) => n.kind),
    ['stream_stalled'],
  );
  w.setConfig({ enabled: false });
  assert.equal(w.events.hasListeners('stream.progress'), false);
  w.stop();
  w.notifier.close();
});
