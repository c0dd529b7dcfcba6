import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeNntpServer } from '../../tests/support/fake-nntp/server.js';
import { addYencArticle, fakeNntpFixture, fakeProvider as provider } from '../../tests/support/fake-nntp/fixtures.js';
import type { PartSpec } from '../../tests/support/yenc/encode.js';
import { NntpPool } from './pool.js';
import {
  AbortedError,
  ArticleMissingError,
  AuthError,
  CorruptArticleError,
  NoProviderError,
  ProviderRefusedError,
  articleEvidence,
} from './errors.js';
import { freePort } from '../../tests/support/free-port.js';
import { checkProvider } from './provider-check.js';
import type { ProviderConfig } from './types.js';

const { fake, closeAfterTests } = fakeNntpFixture();

function pool(list: ProviderConfig[], opts: ConstructorParameters<typeof NntpPool>[1] = {}) {
  return closeAfterTests(
    new NntpPool(list, { connectTimeoutMs: 500, stallTimeoutMs: 400, breakerCooldownMs: 60_000, ...opts }),
  );
}

/** `size` random bytes as one article under `id`; returns them. */
const put = (s: FakeNntpServer, id: string, size = 20_000, extra: Partial<PartSpec> = {}) =>
  addYencArticle(s, id, size, extra);

test('fetches and decodes through AUTHINFO, with pipelining and never more than max_connections', async () => {
  const s = await fake({ username: 'u', password: 'secret' });
  const datas = Array.from({ length: 30 }, (_, i) => put(s, `a${i}@t`, 5000 + i));
  const p = pool([provider(s, { max_connections: 3 })], { pipelineDepth: 3 });
  const got = await Promise.all(datas.map((_, i) => p.body(`a${i}@t`)));
  got.forEach((g, i) => assert.ok(g.data.equals(datas[i]!)));
  assert.ok(s.stats.maxActiveConnections <= 3, `max ${s.stats.maxActiveConnections}`);
  assert.equal(s.stats.unexpected.length, 0);
  const m = p.metrics();
  assert.equal(m.command_success_rate_percent, 100);
  assert.ok(m.total_bytes_downloaded > 30 * 5000);
  assert.equal(m.providers[0]!.commands, 30);
});

test('430 on the first provider falls through to the next; backups only after every primary', async () => {
  const a = await fake();
  const b = await fake();
  const backup = await fake();
  put(backup, 'x@t');
  const onB = put(b, 'y@t');
  const p = pool([provider(backup, { is_backup_provider: true }), provider(a), provider(b)]);
  const y = await p.body('<y@t>');
  assert.ok(y.data.equals(onB));
  assert.equal(y.providerId, `p${b.port}`);
  assert.equal(backup.stats.commands.BODY ?? 0, 0, 'backup not asked while a primary had it');
  const x = await p.body('x@t');
  assert.equal(x.providerId, `p${backup.port}`);
  assert.equal(a.stats.commands.BODY, 2);
  assert.equal(await p.stat('x@t'), true);
  assert.equal(await p.stat('nowhere@t'), false);
  await assert.rejects(p.body('nowhere@t'), ArticleMissingError);
  assert.ok(p.metrics().providers.find((m) => m.id === `p${a.port}`)!.missing_articles >= 3);
});

test('a connection dropped mid-article is retried; a truncated article is corrupt', async () => {
  const s = await fake();
  const data = put(s, 'drop@t', 200_000);
  s.setBehaviour('drop@t', 'drop-once');
  const p = pool([provider(s)], { maxAttempts: 2 });
  assert.ok((await p.body('drop@t')).data.equals(data), 'the retry after the drop succeeds');
  assert.equal(s.stats.commands.BODY, 2);
  put(s, 'dropped@t', 200_000);
  s.setBehaviour('dropped@t', 'drop-mid-body');
  await assert.rejects(p.body('dropped@t'), (e: Error & { kind?: string }) => e.kind === 'connection_reset');
  put(s, 'trunc@t', 50_000);
  s.setBehaviour('trunc@t', 'truncated');
  await assert.rejects(p.body('trunc@t'), CorruptArticleError);
  assert.ok(p.metrics().error_rate_percent > 0);
});

test('a hanging provider times out and the next one serves; work is not stalled', async () => {
  const hang = await fake();
  const good = await fake();
  put(hang, 'h@t');
  hang.setBehaviour('h@t', 'hang-mid-body');
  const data = put(good, 'h@t');
  const silent = await fake({ silent: true });
  const p = pool([provider(silent), provider(hang), provider(good)]);
  const r = await p.body('h@t');
  assert.ok(r.data.equals(data));
  assert.equal(r.providerId, `p${good.port}`);
});

test('wrong CRC on one provider, good copy on the next; garbage and oversized lines are errors', async () => {
  const bad = await fake();
  const good = await fake();
  put(bad, 'c@t', 10_000, { fakeCrc: '00000000' });
  const data = put(good, 'c@t', 10_000);
  const p = pool([provider(bad), provider(good)]);
  assert.ok((await p.body('c@t')).data.equals(data));
  const only = pool([provider(bad)]);
  await assert.rejects(only.body('c@t'), CorruptArticleError);
  put(bad, 'g@t');
  bad.setBehaviour('g@t', 'garbage-status');
  await assert.rejects(only.body('g@t'), (e: Error & { kind?: string }) => e.kind === 'protocol');
  put(bad, 'o@t');
  bad.setBehaviour('o@t', 'oversized-line');
  await assert.rejects(only.body('o@t'), (e: Error & { kind?: string }) => e.kind === 'protocol');
});

test('auth failure and greeting 502 are typed; a failing provider is put aside', async () => {
  const s = await fake({ username: 'u', password: 'right' });
  put(s, 'a@t');
  const p = pool([provider(s, { password: 'wrong' })]);
  await assert.rejects(p.body('a@t'), AuthError);
  assert.equal(p.metrics().providers[0]!.cooling_down, true);
  await assert.rejects(p.body('a@t'), NoProviderError);
  const refusing = await fake({ greeting: '502 Service unavailable' });
  const q = pool([provider(refusing)], { maxAttempts: 1 });
  await assert.rejects(q.body('a@t'), ProviderRefusedError);
  assert.deepEqual(await checkProvider(provider(s, { password: 'wrong' })), {
    success: false,
    error_message: 'Authentication failed (481): check username and password',
  });
  assert.deepEqual(await checkProvider(provider(s, { password: 'right', username: 'u' })), { success: true });
  const r = await checkProvider(provider(refusing));
  assert.equal(r.success, false);
  assert.match(r.error_message!, /refused/);
});

test('streaming requests jump the queue ahead of imports; abort cancels waiting and in-flight requests', async () => {
  const s = await fake({ latencyMs: 20 });
  for (let i = 0; i < 12; i++) put(s, `q${i}@t`, 1000);
  const p = pool([provider(s, { max_connections: 1 })], { pipelineDepth: 1 });
  const order: string[] = [];
  const track = (id: string, prio: 'stream' | 'import' | 'health') =>
    p.body(id, { priority: prio }).then(() => order.push(id));
  const all = [track('q0@t', 'import'), track('q1@t', 'import'), track('q2@t', 'health'), track('q3@t', 'stream')];
  await Promise.all(all);
  assert.deepEqual(order.slice(1), ['q3@t', 'q2@t', 'q1@t']);
  const ctl = new AbortController();
  const first = p.body('q4@t');
  const waiting = p.body('q5@t', { signal: ctl.signal });
  ctl.abort();
  await assert.rejects(waiting, AbortedError);
  await first;
  const inflight = new AbortController();
  const r = p.body('q6@t', { signal: inflight.signal });
  setTimeout(() => inflight.abort(), 5);
  await assert.rejects(r, AbortedError);
  assert.ok((await p.body('q7@t')).data.length === 1000, 'connection still usable after an abort');
});

test('updateProviders applies live: removed providers drain without cutting work, new ones serve', async () => {
  const a = await fake({ latencyMs: 50 });
  const b = await fake();
  const da = put(a, 'u@t', 100_000);
  put(b, 'u@t', 100_000);
  const p = pool([provider(a)]);
  const inflight = p.body('u@t');
  await new Promise((r) => setTimeout(r, 10));
  p.updateProviders([provider(b)]);
  assert.ok((await inflight).data.equals(da), 'in-flight request on the removed provider completed');
  const next = await p.body('u@t');
  assert.equal(next.providerId, `p${b.port}`);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(a.stats.activeConnections, 0, 'removed provider drained');
  p.updateProviders([provider(b, { enabled: false })]);
  await assert.rejects(p.body('u@t'), NoProviderError);
  await assert.rejects(p.body('bad id with spaces'), (e: Error & { kind?: string }) => e.kind === 'invalid_request');
});

test('a 430 is evidence only when every provider said it: refused connections elsewhere are an outage', async () => {
  const lacks = await fake();
  const refused = await Promise.all([freePort(), freePort(), freePort()]);
  const down = refused.map((port, i) => ({ ...provider(lacks), id: `down${i}`, port }));
  for (const list of [
    [...down, provider(lacks)],
    [provider(lacks), ...down],
  ]) {
    const p = pool(list);
    const notMissing = (e: Error) => !(e instanceof ArticleMissingError) && articleEvidence(e) === undefined;
    await assert.rejects(p.body('nowhere@t'), notMissing);
    await assert.rejects(p.stat('nowhere@t'), notMissing, 'stat must not answer "missing" during an outage');
  }
  const all = pool([provider(lacks), provider(await fake())]);
  assert.equal(await all.stat('nowhere@t'), false, 'a 430 from every provider is missing');
});

test('a held provider (the speed test has it) closes its idle connections, opens none, and is given back', async () => {
  const a = await fake();
  const b = await fake();
  for (const s of [a, b]) put(s, 'h1@t');
  const onA = put(a, 'h2@t');
  put(b, 'h2@t');
  const p = pool([provider(a, { max_connections: 2 }), provider(b)]);
  assert.equal((await p.body('h1@t')).providerId, `p${a.port}`, 'the first provider first');
  const opened = a.stats.connections;
  const hold = p.holdConnections(`p${a.port}`)!;
  assert.equal(p.holdConnections('nobody'), undefined);
  // Its idle connection is closed (counted until its socket has closed), and the work goes to the next provider.
  while (hold.connections() > 0 || a.stats.activeConnections > 0) await new Promise((r) => setImmediate(r));
  assert.equal((await p.body('h2@t')).providerId, `p${b.port}`);
  assert.equal(a.stats.connections, opened, 'no connection opened to the held provider');
  hold.release();
  hold.release(); // once only
  const h2 = await p.body('h2@t');
  assert.equal(h2.providerId, `p${a.port}`, 'given back: the first provider serves again');
  assert.ok(h2.data.equals(onA));
  assert.equal(a.stats.unexpected.length, 0);
});

test('onWire: a BODY sent and not answered yet is on the wire; answered or never asked, it is not', async () => {
  const s = await fake();
  put(s, 'k@t');
  put(s, 'h@t');
  s.setBehaviour('h@t', 'hang');
  const p = pool([provider(s, { max_connections: 2 })], { stallTimeoutMs: 30_000 });
  await p.body('k@t');
  assert.equal(p.onWire('k@t'), false, 'answered');
  assert.equal(p.onWire('never@t'), false, 'never asked');
  const stop = new AbortController();
  const hung = p.body('<h@t>', { signal: stop.signal });
  while (!p.onWire('h@t')) await new Promise((r) => setTimeout(r, 5)); // the test's timeout bounds the wait
  assert.equal(p.onWire('<h@t>'), true, 'either spelling of the id');
  stop.abort();
  await assert.rejects(hung, AbortedError);
});

test('leftBehind: a BODY on the wire that nobody waits for is not asked of another provider when it fails', async () => {
  const a = await fake();
  const b = await fake();
  for (const id of ['kept@t', 'wanted@t']) {
    put(a, id);
    a.setBehaviour(id, 'hang'); // times out on the first provider
    put(b, id);
  }
  const p = pool([provider(a, { max_connections: 2 }), provider(b)], { stallTimeoutMs: 300 });
  const kept = p.body('kept@t');
  const wanted = p.body('wanted@t');
  while (!p.onWire('kept@t') || !p.onWire('wanted@t')) await new Promise((r) => setTimeout(r, 5));
  p.leftBehind('kept@t', true);
  await assert.rejects(kept, (e: Error) => e instanceof AbortedError && articleEvidence(e) === undefined);
  assert.ok((await wanted).data.length > 0, 'the one still wanted is fetched from the next provider');
  assert.equal(b.stats.bodyConnection['<kept@t>'], undefined, 'nobody waited: no second fetch');
  assert.notEqual(b.stats.bodyConnection['<wanted@t>'], undefined);
});
