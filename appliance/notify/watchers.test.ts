import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BacklogWatch, ProviderWatch, StallWatch } from './watchers.js';

test('provider down once when it starts cooling down, back once when usable again', () => {
  const w = new ProviderWatch();
  const kinds = (e: Parameters<ProviderWatch['state']>[0]) => w.state(e, 0).map((n) => n.kind);
  assert.deepEqual(kinds({ id: 'p', state: 'usable', last_error: null }), []);
  assert.deepEqual(kinds({ id: 'p', state: 'cooling_down', last_error: 'ECONNREFUSED' }), ['provider_down']);
  assert.deepEqual(kinds({ id: 'p', state: 'cooling_down', last_error: 'ECONNREFUSED' }), []);
  assert.deepEqual(kinds({ id: 'p', state: 'usable', last_error: null }), ['provider_up']);
  assert.deepEqual(kinds({ id: 'p', state: 'usable', last_error: null }), []);
});

test('provider near its cap: a learned cap below max_connections, said again only when it changes', () => {
  const w = new ProviderWatch();
  const e = { id: 'p', state: 'usable' as const, last_error: null, max_connections: 20 };
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
