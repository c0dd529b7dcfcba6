/**
 * Provider states at their source (docs/nntp.md, "Provider states"): the pool announces each change once: its
 * breaker opening, its coming back (only once it answers), a refused login, a learned cap, and config changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addYencArticle, fakeNntpFixture, fakeProvider } from '../../tests/support/fake-nntp/fixtures.js';
import { Relay } from '../../tests/support/tcp-relay.js';
import { ManualClock } from '../clock/manual-clock.js';
import { AuthError, NntpError } from './errors.js';
import { NntpPool, type PoolOptions } from './pool.js';
import type { ProviderStateEvent } from './provider-state.wire.js';
import type { ProviderConfig } from './types.js';

const { fake, closeAfterTests } = fakeNntpFixture();
const account = { username: 'u', password: 'secret' };

/** A pool on `list` whose announcements land in `events`; `seen` lists them as [id, state, change]. */
function watched(list: ProviderConfig[], opts: PoolOptions = {}) {
  const events: ProviderStateEvent[] = [];
  const pool = closeAfterTests(
    new NntpPool(list, {
      connectTimeoutMs: 60_000, // only the outages these tests play end a connection: a busy machine must not time one out
      stallTimeoutMs: 60_000,
      keepaliveMs: 0,
      events: { emit: (_, e) => events.push(e) },
      ...opts,
    }),
  );
  const seen = () => events.map((e) => [e.id, e.state, e.change]);
  return { pool, events, seen };
}

/** Waits, turn by turn of the event loop (real sockets settle in between), until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
}

test('a provider that goes away is announced down once, and back once when it answers again', async () => {
  const s = await fake(account);
  const data = addYencArticle(s, 'a@t', 5000);
  const relay = new Relay({ host: s.host, port: s.port });
  closeAfterTests({ close: () => relay.stop() });
  await relay.start();
  const clock = new ManualClock();
  const cfg = fakeProvider({ host: s.host, port: relay.port, options: s.options }, { id: 'news' });
  const { pool, events, seen } = watched([cfg], { clock, breakerThreshold: 2, breakerCooldownMs: 30_000 });
  assert.ok((await pool.body('a@t')).data.equals(data));
  assert.deepEqual(seen(), [], 'nothing changed');

  await relay.stop(); // the server goes away: connections cut, new ones refused
  const failed = await pool.body('a@t').then(
    () => assert.fail('served with the server gone'),
    (e: NntpError) => e,
  );
  assert.ok(failed instanceof NntpError && failed.kind !== 'article_missing', 'an outage, never "missing"');
  await assert.rejects(pool.stat('a@t'), NntpError, 'an outage is no "not found"');
  assert.deepEqual(seen(), [['news', 'cooling_down', 'breaker_opened']]);
  assert.match(events[0]!.last_error ?? '', /ECONNREFUSED|refused/i);
  assert.ok(events[0]!.retry_at !== null && events[0]!.retry_at > clock.now(), 'says when it is asked again');

  // The cool-down ends and the probe finds it still away: still down, nothing said again.
  const probed = relay.counts.relayed;
  await clock.advance(30_001);
  await until(() => pool.metrics().providers[0]!.cooling_down);
  assert.equal(relay.counts.relayed, probed, 'the probe reached nothing');
  assert.equal(pool.metrics().providers[0]!.state, 'cooling_down');
  assert.equal(events.length, 1);

  // Back: the next probe (no request needed) answers, and it is announced once.
  await relay.start();
  await clock.advance(30_001);
  await until(() => events.length > 1);
  assert.deepEqual(seen().slice(1), [['news', 'usable', 'answered']]);
  assert.equal(events[1]!.retry_at, null);
  assert.ok((await pool.body('a@t')).data.equals(data));
  assert.equal(pool.metrics().providers[0]!.state, 'usable');
  assert.equal(events.length, 2, 'exactly once each way');
});

test('a refused login is announced once, at once; fixing the password brings it back', async () => {
  const s = await fake(account);
  addYencArticle(s, 'a@t', 3000);
  const clock = new ManualClock();
  const wrong = fakeProvider(s, { id: 'news', password: 'wrong' });
  const { pool, seen } = watched([wrong], { clock });
  await assert.rejects(pool.body('a@t'), AuthError);
  await assert.rejects(pool.body('a@t'), NntpError);
  assert.deepEqual(seen(), [['news', 'cooling_down', 'auth_failed']]);

  pool.updateProviders([{ ...wrong, password: account.password }]);
  await clock.advance(1); // new credentials are tried at once
  await until(() => seen().length > 1);
  assert.deepEqual(seen(), [
    ['news', 'cooling_down', 'auth_failed'],
    ['news', 'usable', 'answered'],
  ]);
});

test('a refused login on a connection opened ahead of need (the warm pool) is announced too', async () => {
  const s = await fake(account);
  const { pool, seen } = watched([fakeProvider(s, { id: 'news', password: 'wrong' })], { idleWarmConnections: 1 });
  await until(() => seen().length > 0);
  assert.deepEqual(seen(), [['news', 'cooling_down', 'auth_failed']]);
  assert.match(pool.metrics().providers[0]!.last_error ?? '', /Authentication failed/);
});

test('disabled, enabled, removed and added again: each announced once, nothing for an unchanged list', async () => {
  const s = await fake();
  const a = fakeProvider(s, { id: 'a' });
  const b = fakeProvider(s, { id: 'b' });
  const { pool, seen } = watched([a, b]);
  pool.updateProviders([a, b]);
  pool.updateProviders([a, { ...b, max_connections: 4 }]);
  assert.deepEqual(seen(), [], 'no state changed');
  pool.updateProviders([a, { ...b, enabled: false }]);
  pool.updateProviders([a, { ...b, enabled: false }]);
  pool.updateProviders([a, b]);
  pool.updateProviders([a]);
  pool.updateProviders([a]);
  pool.updateProviders([a, b]);
  assert.deepEqual(seen(), [
    ['b', 'disabled', 'disabled'],
    ['b', 'usable', 'enabled'],
    ['b', 'removed', 'removed'],
    ['b', 'usable', 'added'],
  ]);
});

test('a provider disabled while down is not probed, and is usable (not "back") when enabled again', async () => {
  const s = await fake(account);
  const clock = new ManualClock();
  const wrong = fakeProvider(s, { id: 'news', password: 'wrong' });
  const { pool, seen } = watched([wrong], { clock });
  await assert.rejects(pool.body('a@t'), AuthError);
  const connections = s.stats.connections;
  pool.updateProviders([{ ...wrong, enabled: false }]);
  await clock.advance(11 * 60_000);
  assert.equal(s.stats.connections, connections, 'no probe of a disabled provider');
  pool.updateProviders([wrong]);
  assert.deepEqual(seen(), [
    ['news', 'cooling_down', 'auth_failed'],
    ['news', 'disabled', 'disabled'],
    ['news', 'usable', 'enabled'],
  ]);
});

test('answers on connections opened before it went down do not bring it back (a listener gone, old readers serving)', async () => {
  const s = await fake(account);
  const data = Array.from({ length: 6 }, (_, i) => addYencArticle(s, `a${i}@t`, 3000));
  const relay = new Relay({ host: s.host, port: s.port });
  closeAfterTests({ close: () => relay.stop() });
  await relay.start();
  const clock = new ManualClock();
  const cfg = fakeProvider({ host: s.host, port: relay.port, options: s.options }, { id: 'news', max_connections: 3 });
  const { pool, seen } = watched([cfg], { clock, breakerThreshold: 1, breakerCooldownMs: 30_000, pipelineDepth: 1 });
  assert.ok((await pool.body('a0@t')).data.equals(data[0]!));
  const old = pool.metrics().providers[0]!.active_connections;
  assert.ok(old >= 1);

  relay.pause(); // new connections refused; the one open still relayed
  // A burst asks for more connections; only a refused one a request waited for opens the breaker. One opened ahead
  // of need only backs off (pool.ts openAhead), and on a busy machine the old connection may serve the whole burst
  // meanwhile: burst again past that back-off until the breaker opens.
  for (let round = 1; ; round++) {
    const burst = await Promise.allSettled(data.map((_, i) => pool.body(`a${i}@t`)));
    assert.ok(
      burst.some((r) => r.status === 'fulfilled'),
      'the old connection still serves',
    );
    if (seen().length > 0) break;
    assert.ok(round < 20, 'twenty bursts and no refused connection opened the breaker');
    await clock.advance(5_000);
  }
  assert.deepEqual(seen(), [['news', 'cooling_down', 'breaker_opened']]);

  // The cool-down ends: an article served on the old connection says nothing of new ones; the probe is refused.
  await clock.advance(30_000);
  assert.equal(pool.metrics().providers[0]!.cooling_down, false, 'the breaker closed');
  assert.ok((await pool.body('a1@t')).data.equals(data[1]!));
  assert.equal(pool.metrics().providers[0]!.state, 'cooling_down');
  await clock.advance(1);
  await until(() => pool.metrics().providers[0]!.cooling_down);
  assert.equal(seen().length, 1, 'not announced back on an old connection');

  await relay.start();
  await clock.advance(30_001);
  await until(() => seen().length > 1);
  assert.deepEqual(seen().slice(1), [['news', 'usable', 'answered']]);
});
