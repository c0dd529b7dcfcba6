/** The latency-adaptive pool: pipeline depth from the measured link, urgent requests first, the warm pool. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeNntpServer } from '../../tests/support/fake-nntp/server.js';
import { addYencArticle, fakeNntpFixture, fakeProvider } from '../../tests/support/fake-nntp/fixtures.js';
import { DelayRelay } from '../../tests/support/delay-relay.js';
import { Relay } from '../../tests/support/tcp-relay.js';
import { LinkEstimate } from './link-estimate.js';
import { NntpPool, type PoolOptions } from './pool.js';
import { WARM_BACKOFF_MAX_MS, warmBackoffMs } from './warm-pool.js';
import type { ProviderConfig } from './types.js';

const { fake, closeAfterTests } = fakeNntpFixture();

/** A fake server (AUTHINFO u/p) holding `articles` articles a0@t, a1@t, ... of `size` random bytes each. */
async function server(articles: number, size: number): Promise<{ s: FakeNntpServer; datas: Buffer[] }> {
  const s = await fake({ username: 'u', password: 'p' });
  const datas = Array.from({ length: articles }, (_, i) => addYencArticle(s, `a${i}@t`, size));
  return { s, datas };
}

/** One connection to whatever listens on `port` on loopback (the server or a relay in front of it). */
const provider = (port: number, over: Partial<ProviderConfig> = {}): ProviderConfig =>
  fakeProvider({ host: '127.0.0.1', port }, { username: 'u', password: 'p', max_connections: 1, ...over });

/** A relay in front of `s` that makes the link's round trip `rttMs`, stopped after the file's tests. */
async function delayedBy(s: FakeNntpServer, rttMs: number): Promise<DelayRelay> {
  const relay = new DelayRelay({ host: s.host, port: s.port }, rttMs);
  closeAfterTests({ close: () => relay.stop() });
  await relay.start();
  return relay;
}

function pool(list: ProviderConfig[], opts: PoolOptions = {}): NntpPool {
  return closeAfterTests(new NntpPool(list, { connectTimeoutMs: 5000, ...opts }));
}

/** Waits for `what` (a wait that never ends fails with the test's timeout: no shorter bound on a busy machine). */
const until = async (what: () => boolean) => {
  while (!what()) await new Promise((r) => setTimeout(r, 10));
};

test('LinkEstimate: the pipeline depth is the floor on a short link, grows with the round trip, stays bounded', () => {
  const depth = (rttMs: number) => {
    const l = new LinkEstimate();
    for (let i = 0; i < 20; i++) {
      l.recordRtt(rttMs);
      l.recordTransfer(800_000, 20); // 40 MB/s per connection: 20 ms per article
    }
    return l.pipelineDepth(2, 8);
  };
  assert.equal(new LinkEstimate().pipelineDepth(2, 8), 2, 'nothing measured: the floor');
  assert.equal(depth(0.3), 2);
  assert.equal(depth(20), 2, '1 + 20 ms / 20 ms');
  assert.equal(depth(40), 3);
  assert.equal(depth(80), 5);
  assert.equal(depth(1000), 8, 'bounded by the maximum');
  const d = [0.3, 10, 20, 40, 80, 160, 400].map(depth);
  for (let i = 1; i < d.length; i++) assert.ok(d[i]! >= d[i - 1]!, `monotonic in the round trip: ${d.join(',')}`);
});

test('LinkEstimate: depths are sized from the base round trip, not from samples that queued under load', () => {
  const l = new LinkEstimate();
  l.recordTransfer(800_000, 20);
  for (const [at, ms] of [
    [0, 20],
    [100, 150],
    [200, 200],
    [300, 180],
  ] as const)
    l.recordRtt(ms, at);
  assert.equal(l.baseRtt(300), 20);
  assert.ok(l.rttMs! > 90, 'the smoothed round trip (metrics) does see the load');
  assert.equal(l.pipelineDepth(2, 8), 2, '1 + 20 ms / 20 ms, not 1 + 180 / 20');
  l.recordRtt(90, 12_000); // 10 s later the old minimum is forgotten: the path itself may have changed
  assert.equal(l.baseRtt(12_000), 90);
});

test('LinkEstimate: a link is long when a round trip outlasts an article transfer (then pipelining beats a handshake)', () => {
  const l = new LinkEstimate();
  assert.equal(l.isLong, false, 'nothing measured: short, new connections first as before');
  l.recordTransfer(800_000, 20);
  l.recordRtt(5);
  assert.equal(l.isLong, false, 'loopback-like: 5 ms round trip, 20 ms transfer');
  const far = new LinkEstimate();
  far.recordTransfer(800_000, 20);
  far.recordRtt(40);
  assert.equal(far.isLong, true);
});

test('LinkEstimate: the delivery rate counts bytes over the time BODYs were in flight', () => {
  const l = new LinkEstimate();
  l.bodyStarted(0);
  l.addBytes(500_000);
  l.bodyEnded(100); // 5,000 bytes/ms over 100 busy ms
  l.addBytes(9_999_999); // idle: not counted
  l.bodyStarted(1000);
  l.bodyStarted(1000);
  l.addBytes(1_000_000);
  l.bodyEnded(1100);
  l.bodyEnded(1100);
  assert.equal(l.deliveryRate!.toFixed(0), String(5000 * 0.8 + 10_000 * 0.2));
});

test('the pipeline depth follows the measured round trip through a delayed link, within pipelineDepth..maxPipelineDepth', async () => {
  const { s, datas } = await server(16, 768_000);
  const relay = await delayedBy(s, 80);
  const p = pool([provider(relay.port)], { pipelineDepth: 2, maxPipelineDepth: 5 });
  const all = () => Promise.all(datas.map((_, i) => p.body(`a${i}@t`, { priority: 'import' })));
  (await all()).forEach((g, i) => assert.ok(g.data.equals(datas[i]!), 'byte-exact'));
  for (let i = 0; i < 3; i++) await p.body('a0@t', { priority: 'import' }); // round trips on an idle connection
  const link = p.linkFacts()!;
  assert.ok(link.rttMs >= 75, `measured round trip ${link.rttMs} ms`);
  assert.equal(link.capacity, 5, 'one connection x the depth the link calls for');
  s.stats.maxPipelined = 0;
  (await all()).forEach((g, i) => assert.ok(g.data.equals(datas[i]!), 'byte-exact'));
  assert.equal(s.stats.maxPipelined, 5, 'a long round trip pipelines deeper, up to maxPipelineDepth and no further');
});

test('an urgent request goes before the stream requests already waiting', async () => {
  const { s } = await server(6, 50_000);
  const p = pool([provider(s.port)], { pipelineDepth: 1, maxPipelineDepth: 1 });
  await p.body('a0@t', { priority: 'stream' });
  const order: string[] = [];
  const track = (id: string, urgent = false) => p.body(id, { priority: 'stream', urgent }).then(() => order.push(id));
  // a1 takes the one connection; a2..a4 wait in the stream lane; a5 arrives last but is urgent (a seek).
  await Promise.all([track('a1@t'), track('a2@t'), track('a3@t'), track('a4@t'), track('a5@t', true)]);
  assert.deepEqual(order, ['a1@t', 'a5@t', 'a2@t', 'a3@t', 'a4@t']);
});

test('a busy connection takes a pipelined request and the next connection opens ahead, not under the request', async () => {
  const { s } = await server(4, 50_000);
  const relay = await delayedBy(s, 40);
  const p = pool([provider(relay.port, { max_connections: 4 })], { pipelineDepth: 2 });
  await p.body('a0@t', { priority: 'import' }); // one connection, handshakes done (4+ round trips)
  await Promise.all([p.body('a1@t', { priority: 'import' }), p.body('a2@t', { priority: 'import' })]);
  assert.deepEqual(
    [s.stats.bodyConnection['<a1@t>'], s.stats.bodyConnection['<a2@t>']],
    [1, 1],
    'the second request rode the open connection, no handshake under it',
  );
  await until(() => s.stats.activeConnections === 2);
});

test('warm pool: streaming keeps half of max_connections open, refilled after the provider drops them', async () => {
  const { s } = await server(2, 10_000);
  const imports = pool([provider(s.port, { max_connections: 6 })]);
  await imports.body('a0@t', { priority: 'import' });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(s.stats.activeConnections, 1, 'imports and health checks open connections on demand only');
  await imports.close();
  await until(() => s.stats.activeConnections === 0);

  const streams = pool([
    provider(s.port, { max_connections: 6 }),
    provider(s.port, { id: 'backup', max_connections: 6, is_backup_provider: true }),
  ]);
  await streams.body('a0@t', { priority: 'stream' });
  await until(() => s.stats.activeConnections === 3);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(s.stats.activeConnections, 3, 'half of max_connections of the primary, none for the backup');
  const opened = s.stats.connections;
  s.dropAll();
  await until(() => s.stats.connections === opened + 3 && s.stats.activeConnections === 3);
  assert.ok((await streams.body('a1@t', { priority: 'stream' })).data.length === 10_000);
});

test('warm pool: idleWarmConnections keeps one connection per primary open from the start, quiet or not', async () => {
  const { s } = await server(1, 10_000);
  const p = pool(
    [
      provider(s.port, { max_connections: 6 }),
      provider(s.port, { id: 'backup', max_connections: 6, is_backup_provider: true }),
    ],
    { idleWarmConnections: 1, keepaliveMs: 200, maxIdleMs: 400 },
  );
  await until(() => s.stats.activeConnections === 1);
  await new Promise((r) => setTimeout(r, 700)); // past maxIdleMs with no request at all
  assert.equal(s.stats.activeConnections, 1, 'one for the primary, none for the backup, kept however quiet');
  const opened = s.stats.connections;
  s.dropAll(); // the provider drops idle readers: the keepalive's tick opens a new one
  // Accepted by the server is not yet ready: the pool counts a connection once its greeting and login are done.
  await until(
    () =>
      s.stats.connections === opened + 1 &&
      s.stats.activeConnections === 1 &&
      p.metrics().providers[0]!.active_connections === 1,
  );
  const before = s.stats.connections;
  assert.equal((await p.body('a0@t', { priority: 'import' })).data.length, 10_000);
  assert.equal(s.stats.connections, before, 'the first read after a quiet spell found its connection ready');
});

test('warm pool: a provider down when the pool starts gets its idle connection once it is back, with no request', async () => {
  const { s } = await server(1, 10_000);
  const relay = new Relay({ host: '127.0.0.1', port: s.port });
  await relay.start();
  await relay.stop(); // the port refuses: the warm connection fails and backs off
  pool([provider(relay.port, { max_connections: 4 })], {
    idleWarmConnections: 1,
    keepaliveMs: 100,
    maxIdleMs: 400,
    breakerCooldownMs: 200,
  });
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(s.stats.connections, 0);
  await relay.start();
  await until(() => s.stats.activeConnections === 1);
  await relay.stop();
});

test('warm pool: opening ahead backs off, doubling per failure; a refused login waits the longest at once', async () => {
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => warmBackoffMs(n, 5_000, false)),
    [5_000, 10_000, 20_000, 40_000],
  );
  assert.equal(warmBackoffMs(30, 5_000, false), WARM_BACKOFF_MAX_MS);
  assert.equal(warmBackoffMs(1, 5_000, true), WARM_BACKOFF_MAX_MS);
  const { s } = await server(1, 10_000);
  pool([provider(s.port, { password: 'wrong', max_connections: 4 })], {
    idleWarmConnections: 1,
    keepaliveMs: 40,
    maxIdleMs: 400,
    breakerCooldownMs: 40,
  });
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(s.stats.connections, 1, 'one refused login, not one per keepalive tick');
});

test('warm pool: no connection is opened ahead while a read is on the wire', async () => {
  const { s } = await server(1, 200_000);
  s.setBehaviour('a0@t', 'hang-mid-body'); // the status line and half the body, then silence: a BODY in flight
  const p = pool([provider(s.port, { max_connections: 8 })], { stallTimeoutMs: 5000, maxAttempts: 1 });
  const read = p.body('a0@t', { priority: 'stream' }).catch((e: Error) => e);
  await until(() => (s.stats.commands.BODY ?? 0) === 1);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(s.stats.connections, 1, 'streaming started, but the floor waits for the transfer to end');
  await p.close();
  assert.ok((await read) instanceof Error);
});
