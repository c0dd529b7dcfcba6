import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProviderStateEvent } from '../events/live.wire.js';
import { BacklogWatch, ProviderWatch, StallWatch } from './watchers.js';

const event = (over: Partial<ProviderStateEvent>): ProviderStateEvent => ({
  id: 'p',
  health: 'ok',
  reason: null,
  state: 'usable',
  change: 'answered',
  last_error: null,
  allowed_connections: null,
  max_connections: 20,
  retry_at: null,
  ...over,
});

test('provider down once when it starts cooling down, back once when usable again', () => {
  const w = new ProviderWatch();
  const kinds = (e: Partial<ProviderStateEvent>) => w.state(event(e), 0).map((n) => n.kind);
  const down = { state: 'cooling_down', change: 'breaker_opened', last_error: 'ECONNREFUSED' } as const;
  assert.deepEqual(kinds({ state: 'usable' }), []);
  assert.deepEqual(kinds(down), ['provider_down']);
  assert.deepEqual(kinds(down), []);
  assert.deepEqual(kinds({ state: 'usable' }), ['provider_up']);
  assert.deepEqual(kinds({ state: 'usable' }), []);
});

test('a provider disabled or removed while down is never said to be back, nor near its cap', () => {
  const w = new ProviderWatch();
  const kinds = (e: Partial<ProviderStateEvent>) => w.state(event(e), 0).map((n) => n.kind);
  assert.deepEqual(kinds({ state: 'cooling_down', allowed_connections: 0 }), ['provider_down']);
  assert.deepEqual(kinds({ state: 'disabled', change: 'disabled', allowed_connections: 3 }), []);
  assert.deepEqual(kinds({ state: 'usable', change: 'enabled' }), []);
  assert.deepEqual(kinds({ state: 'removed', change: 'removed', allowed_connections: 3 }), []);
});

test('provider near its cap: a learned cap below max_connections, said again only when it changes', () => {
  const w = new ProviderWatch();
  const e = event({ change: 'cap_changed' });
  assert.deepEqual(
    w.state({ ...e, allowed_connections: 8 }, 0).map((n) => n.message),
    ['Provider p: it allows 8 of the 20 connections configured'],
  );
  assert.equal(w.state({ ...e, allowed_connections: 8 }, 0).length, 0);
  assert.equal(w.state({ ...e, allowed_connections: 6 }, 0).length, 1);
  assert.equal(w.state({ ...e, allowed_connections: null }, 0).length, 0);
});

test('provider near its cap: every allowed connection busy with requests waiting, once until it eases', () => {
  const w = new ProviderWatch();
  const p = { id: 'p', enabled: true, active_connections: 4, max_connections: 10, allowed_connections: 4 };
  const m = (waiting: number, active: number) =>
    ({ waiting_requests: waiting, providers: [{ ...p, active_connections: active }] }) as never;
  assert.equal(w.metrics(m(0, 4), 0).length, 0);
  assert.equal(w.metrics(m(3, 4), 0)[0]?.kind, 'provider_near_cap');
  assert.equal(w.metrics(m(3, 4), 0).length, 0);
  assert.equal(w.metrics(m(0, 2), 0).length, 0);
  assert.equal(w.metrics(m(1, 4), 0).length, 1);
});

test('a stream stalled: its stalled time grew by stall_seconds or more since the last event', () => {
  const w = new StallWatch();
  w.opened('1', '/complete/tv/Show/ep.mkv');
  assert.equal(w.progress('1', 5_000, 30_000, 0), undefined);
  const n = w.progress('1', 40_000, 30_000, 0);
  assert.equal(n?.kind, 'stream_stalled');
  assert.equal(n?.details.stalled_seconds, 35);
  assert.equal(w.closed('1', 40_000, 30_000, 0), undefined);
  assert.equal(w.progress('1', 90_000, 30_000, 0), undefined, 'a closed stream is forgotten');
});

test('health backlog: said when the files waiting rose by the growth over a window', () => {
  const w = new BacklogWatch();
  assert.equal(w.sample(100, 50, 60, 0), undefined);
  assert.equal(w.sample(140, 50, 60, 0), undefined);
  const n = w.sample(200, 50, 60, 0);
  assert.equal(n?.kind, 'health_backlog');
  assert.equal(n?.details.growth, 60);
});
