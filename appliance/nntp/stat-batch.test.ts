/**
 * NntpPool.statBatch (the health checker's and the import probe's STAT path): answers as exact as one stat() per
 * article (true, false only for a 430 from every provider, the outage otherwise), in order, within its window,
 * pipelined, and cancelled by its signal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeNntpServer } from '../../tests/support/fake-nntp/server.js';
import { addYencArticle, fakeNntpFixture, fakeProvider as provider } from '../../tests/support/fake-nntp/fixtures.js';
import { freePort } from '../../tests/support/free-port.js';
import { AbortedError, ArticleMissingError, NntpError, articleEvidence } from './errors.js';
import { NntpPool } from './pool.js';
import type { ProviderConfig } from './types.js';

const { fake, closeAfterTests } = fakeNntpFixture();

function pool(list: ProviderConfig[], opts: ConstructorParameters<typeof NntpPool>[1] = {}) {
  return closeAfterTests(
    // No test here plays a slow server: a busy machine must not time a connection out (a 400 ms stall fired once).
    new NntpPool(list, { connectTimeoutMs: 60_000, stallTimeoutMs: 60_000, breakerCooldownMs: 60_000, ...opts }),
  );
}

/** STAT only asks whether an article exists: ten bytes will do. */
const article = (s: FakeNntpServer, id: string) => addYencArticle(s, id, 10);

test('answers in order: true, false for a 430 everywhere, a backup asked only after the primaries', async () => {
  const primary = await fake();
  const backup = await fake();
  const ids = Array.from({ length: 300 }, (_, i) => `a${i}@t`);
  ids.forEach((id, i) => {
    if (i % 3 !== 2) article(primary, id); // every third is not on the primary...
    if (i % 3 === 2 && i % 2 === 0) article(backup, id); // ...and half of those are on the backup
  });
  const p = pool([provider(primary), provider(backup, { is_backup_provider: true })], { statPipelineDepth: 16 });
  const answers = await p.statBatch([...ids, 'not a message id'], { priority: 'health', window: 64 });
  assert.equal(answers.length, 301);
  ids.forEach((_, i) => assert.equal(answers[i], i % 3 !== 2 || i % 2 === 0, `answer ${i}`));
  assert.ok(answers[300] instanceof NntpError && answers[300].kind === 'invalid_request');
  assert.equal(primary.stats.commands.STAT, 300, 'each article asked of the primary once');
  assert.equal(backup.stats.commands.STAT, 100, 'only what the primary lacked went to the backup');
  assert.ok(primary.stats.maxPipelined > 1, 'STATs were pipelined');
  assert.equal(p.metrics().waiting_requests, 0);
  assert.deepEqual(await p.statBatch([]), []);
});

test('a 430 is not "missing" while another provider could not be asked: the outage is the answer', async () => {
  const lacks = await fake();
  article(lacks, 'here@t');
  const down = { host: '127.0.0.1', port: await freePort() };
  const p = pool([provider(lacks), provider(down, { id: 'down' })]);
  const [here, nowhere] = await p.statBatch(['here@t', 'nowhere@t']);
  assert.equal(here, true);
  assert.ok(nowhere instanceof NntpError && !(nowhere instanceof ArticleMissingError));
  assert.equal(articleEvidence(nowhere), undefined, 'refused connections are no evidence');
  const all = pool([provider(lacks), provider(await fake())]);
  assert.deepEqual(await all.statBatch(['nowhere@t', 'here@t']), [false, true]);
});

test('never more than the window in flight; topped up half a window at a time; an abort rejects and leaves nothing', async () => {
  const slow = await fake({ latencyMs: 5 });
  const ids = Array.from({ length: 200 }, (_, i) => `s${i}@t`);
  for (const id of ids) article(slow, id);
  const p = pool([provider(slow, { max_connections: 4 })], { statPipelineDepth: 32 });
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, p.metrics().in_flight_commands)), 1);
  const answers = await p.statBatch(ids, { window: 20 });
  clearInterval(sampler);
  assert.ok(answers.every((a) => a === true));
  assert.ok(most <= 20, `${most} in flight`);

  const ac = new AbortController();
  const pending = p.statBatch(ids, { window: 20, signal: ac.signal });
  setTimeout(() => ac.abort(), 20);
  await assert.rejects(pending, AbortedError);
  assert.equal(p.metrics().waiting_requests, 0, 'the aborted batch left no request waiting');
  await assert.rejects(p.statBatch(ids, { signal: ac.signal }), AbortedError);
  assert.deepEqual(await p.statBatch(['s1@t']), [true], 'the pool still serves');
});
