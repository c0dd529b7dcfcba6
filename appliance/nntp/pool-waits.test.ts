/** Pool behaviour over time: keepalive on idle connections, deeper STAT pipelines, waiting out a cooling provider. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeNntpServer, FakeNntpOptions } from '../../tests/support/fake-nntp/server.js';
import { addYencArticle, fakeNntpFixture, fakeProvider } from '../../tests/support/fake-nntp/fixtures.js';
import { NntpPool, type PoolOptions } from './pool.js';
import { AbortedError, NoProviderError, ProviderRefusedError } from './errors.js';
import type { ProviderConfig } from './types.js';
import { waitUntil } from '../../tests/support/wait.js';

const { fake: start, closeAfterTests } = fakeNntpFixture();

/** A fake server with these options holding `articles` articles a0@t, a1@t, ... of 2,000 random bytes each. */
async function fake(opts: FakeNntpOptions = {}, articles = 20): Promise<FakeNntpServer> {
  const s = await start(opts);
  for (let i = 0; i < articles; i++) addYencArticle(s, `a${i}@t`, 2000);
  return s;
}

/** A pool over `s` alone, one connection unless `over` says otherwise. */
function pool(s: FakeNntpServer, opts: PoolOptions, over: Partial<ProviderConfig> = {}): NntpPool {
  const cfg = fakeProvider(s, { id: 'p', max_connections: 1, ...over });
  return closeAfterTests(new NntpPool([cfg], { connectTimeoutMs: 1000, stallTimeoutMs: 1000, ...opts }));
}

test('keepalive: DATE on a silent connection keeps it past the provider idle timeout; without it, it is dropped', async () => {
  const kept = await fake({ idleTimeoutMs: 300 });
  const p = pool(kept, { keepaliveMs: 80, maxIdleMs: 10_000 });
  await p.body('a0@t');
  await sleep(900);
  assert.equal(kept.stats.idleDrops, 0, 'the provider never saw an idle connection');
  assert.ok((kept.stats.commands.DATE ?? 0) >= 3, `DATE sent ${kept.stats.commands.DATE ?? 0} times`);
  await p.body('a1@t');
  assert.equal(kept.stats.connections, 1, 'the same warm connection served the next request');

  const dropped = await fake({ idleTimeoutMs: 300 });
  const q = pool(dropped, { keepaliveMs: 0 });
  await q.body('a0@t');
  await sleep(900);
  assert.equal(dropped.stats.idleDrops, 1);
  assert.equal(dropped.stats.commands.DATE ?? 0, 0);
  await q.body('a1@t');
  assert.equal(dropped.stats.connections, 2, 'a new connection had to be opened');
});

test('keepalive stops at maxIdleMs: a connection with no real work is closed by us', async () => {
  // The server would drop an idle connection only after a minute: the close seen is ours (a 2 s server timeout beat the
  // pool's 300 ms on a busy machine once).
  const s = await fake({ idleTimeoutMs: 60_000 });
  const p = pool(s, { keepaliveMs: 40, maxIdleMs: 300 });
  await p.body('a0@t');
  await waitUntil('the idle connection closed', () => s.stats.activeConnections === 0, { everyMs: 20 });
  assert.equal(s.stats.activeConnections, 0);
  assert.equal(s.stats.commands.QUIT, 1, 'closed politely');
  assert.equal(s.stats.idleDrops, 0);
  assert.equal(p.metrics().active_connections, 0);
  await p.body('a1@t');
});

test('STAT goes deeper than BODY on one connection (statPipelineDepth vs pipelineDepth)', async () => {
  const stats = await fake({ latencyMs: 15 });
  const p = pool(stats, { pipelineDepth: 2, statPipelineDepth: 8 });
  const ids = Array.from({ length: 16 }, (_, i) => (i % 4 === 3 ? `missing${i}@t` : `a${i}@t`));
  const found = await Promise.all(ids.map((id) => p.stat(id, { priority: 'health' })));
  assert.deepEqual(
    found,
    ids.map((id) => !id.startsWith('missing')),
  );
  assert.equal(stats.stats.maxPipelined, 8);
  assert.equal(stats.stats.connections, 1);

  const bodies = await fake({ latencyMs: 15 });
  // maxPipelineDepth pins BODY at 2: the 15 ms answers would otherwise measure as a long round trip and go deeper.
  const q = pool(bodies, { pipelineDepth: 2, maxPipelineDepth: 2, statPipelineDepth: 8 });
  const all = Promise.all(Array.from({ length: 12 }, (_, i) => q.body(`a${i}@t`)));
  await waitUntil('the connection to open', () => q.metrics().in_flight_commands > 0, { everyMs: 2 });
  // The metric the latency benchmark reads: two BODYs on the wire (of 12 answered 15 ms apart), the rest waiting.
  assert.deepEqual([q.metrics().in_flight_commands, q.metrics().providers[0]!.in_flight_commands], [2, 2]);
  await all;
  assert.equal(bodies.stats.maxPipelined, 2);
  assert.equal(q.metrics().in_flight_commands, 0);
});

/** Makes the provider refuse one connection so its breaker (threshold 1) opens for the pool's cooldown. */
async function trip(s: FakeNntpServer, p: NntpPool): Promise<void> {
  s.options.greeting = '502 Service unavailable';
  await assert.rejects(p.body('a19@t'), ProviderRefusedError);
  s.options.greeting = undefined;
  assert.equal(p.metrics().providers[0]!.cooling_down, true);
}

test('when every provider cools down, requests wait for it (stream first) instead of failing at once', async () => {
  const s = await fake();
  const p = pool(s, { breakerThreshold: 1, breakerCooldownMs: 300, coolingWaitMs: 2000, pipelineDepth: 1 });
  await trip(s, p);
  const started = Date.now();
  const order: string[] = [];
  const imp = p.body('a1@t', { priority: 'import' }).then(() => order.push('import'));
  const health = p.body('a2@t', { priority: 'health' }).then(() => order.push('health'));
  const stream = p.body('a3@t', { priority: 'stream' }).then(() => order.push('stream'));
  const ctl = new AbortController();
  const aborted = p.body('a4@t', { signal: ctl.signal });
  await sleep(50);
  assert.equal(p.metrics().waiting_requests, 4);
  ctl.abort();
  await assert.rejects(aborted, AbortedError);
  await Promise.all([imp, health, stream]);
  assert.ok(Date.now() - started >= 200, 'they waited for the cooldown');
  assert.deepEqual(order, ['stream', 'health', 'import']);
  assert.equal(s.stats.commands.BODY, 3, 'the aborted request was never sent');
});

test('a cooldown longer than coolingWaitMs fails at once with NoProviderError saying when it comes back', async () => {
  const s = await fake();
  const p = pool(s, { breakerThreshold: 1, breakerCooldownMs: 60_000, coolingWaitMs: 1000 });
  await trip(s, p);
  let outcome: unknown = 'pending';
  p.body('a1@t').then(
    () => (outcome = 'served'),
    (e: unknown) => (outcome = e),
  );
  await new Promise((r) => setImmediate(r));
  assert.equal(p.metrics().waiting_requests, 0, 'it never joined the requests waiting for a provider');
  assert.notEqual(outcome, 'pending', 'it failed in the same turn, without waiting for a timer');
  await assert.rejects(Promise.reject(outcome), (e: unknown) => {
    assert.ok(e instanceof NoProviderError, String(e));
    assert.match(e.message, /cooling down \(back in 60 s\)/);
    return true;
  });
});
