import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addYencArticle, fakeNntpFixture, fakeProvider as provider } from '../../tests/support/fake-nntp/fixtures.js';
import { NntpPool } from './pool.js';
import type { ProviderConfig } from './types.js';
import { waitUntil } from '../../tests/support/wait.js';

const { fake, closeAfterTests } = fakeNntpFixture();

function pool(list: ProviderConfig[], opts: ConstructorParameters<typeof NntpPool>[1] = {}) {
  return closeAfterTests(new NntpPool(list, { connectTimeoutMs: 500, stallTimeoutMs: 2_000, ...opts }));
}

test("a player's read goes before a scanner's reads queued earlier, and never behind them on a connection", async () => {
  const s = await fake({ latencyMs: 20 });
  for (let i = 0; i < 9; i++) addYencArticle(s, `c${i}@t`, 1000);
  const p = pool([provider(s, { max_connections: 2 })], { pipelineDepth: 2 });
  const order: string[] = [];
  const scans = Array.from({ length: 8 }, (_, i) =>
    p.body(`c${i}@t`, { priority: 'stream', reader: 'scanner', stream: 1 }).then(() => order.push(`scan${i}`)),
  );
  const play = p.body('c8@t', { priority: 'stream', reader: 'player', stream: 2 }).then(() => order.push('play'));
  await Promise.all([...scans, play]);
  // the scanner took both connections first (alone); the player goes on the first one freed
  assert.ok(order.indexOf('play') <= 4, order.join(' '));
});

test('alone, a scanner gets every connection of the provider', async () => {
  const s = await fake({ latencyMs: 20 });
  for (let i = 0; i < 8; i++) addYencArticle(s, `d${i}@t`, 1000);
  const p = pool([provider(s, { max_connections: 4 })], { pipelineDepth: 1 });
  await Promise.all(Array.from({ length: 8 }, (_, i) => p.body(`d${i}@t`, { priority: 'stream', reader: 'scanner' })));
  assert.equal(s.stats.maxActiveConnections, 4);
});

test("while a player reads, a scanner's reads queued before its own hold one connection of four", async () => {
  const s = await fake({ latencyMs: 20 });
  for (let i = 0; i < 24; i++) addYencArticle(s, `e${i}@t`, 1000);
  const p = pool([provider(s, { max_connections: 4 })], { pipelineDepth: 1, maxPipelineDepth: 1 });
  const done: string[] = [];
  const scan = Array.from({ length: 12 }, (_, i) =>
    p.body(`e${12 + i}@t`, { priority: 'stream', reader: 'scanner', stream: 2 }).then(() => done.push('scan')),
  );
  const play = Array.from({ length: 12 }, (_, i) =>
    p.body(`e${i}@t`, { priority: 'stream', stream: 1 }).then(() => done.push('play')),
  );
  await Promise.all([...play, ...scan]);
  // the scanner's first four were on the wire before the player asked; after them, one connection in four: the
  // player's 12 take 4 waves on 3 connections, beside 4 of the scanner's (FIFO would finish all 12 of them first)
  const scansBefore = done.slice(0, done.lastIndexOf('play')).filter((x) => x === 'scan').length;
  assert.ok(scansBefore <= 8, `${scansBefore} scanner reads done among the player's: ${done.join(' ')}`);
});

test('each command done says its lane, its stream and the bytes it brought; the stream counts its commands on the wire', async () => {
  const s = await fake({ latencyMs: 30 });
  addYencArticle(s, 'f0@t', 1000);
  addYencArticle(s, 'f1@t', 2000);
  const done: { lane?: string; stream?: number; bytes?: number; outcome: string }[] = [];
  const p = pool([provider(s, { max_connections: 2 })], {
    onCommandDone: (d) => done.push({ lane: d.lane, stream: d.stream, bytes: d.bytes, outcome: d.outcome }),
  });
  const a = p.body('f0@t', { priority: 'stream', reader: 'player', stream: 7 });
  const b = p.body('f1@t', { priority: 'stream', reader: 'player', readAhead: true, stream: 7 });
  const seen = await waitUntil('a command of stream 7 on the wire', () => p.streamCommands(7) || undefined, {
    everyMs: 2,
  });
  assert.ok(seen >= 1, 'on the wire');
  await Promise.all([a, b]);
  await p.stat('f0@t', { priority: 'health' });
  assert.equal(p.streamCommands(7), 0);
  const byLane = Object.fromEntries(done.map((d) => [d.lane ?? '', d]));
  assert.deepEqual(byLane.play, { lane: 'play', stream: 7, bytes: 1000, outcome: 'ok' });
  assert.deepEqual(byLane['play-ahead'], { lane: 'play-ahead', stream: 7, bytes: 2000, outcome: 'ok' });
  assert.deepEqual(byLane.health, { lane: 'health', stream: undefined, bytes: 0, outcome: 'ok' });
});

test('right after a player read, background work holds only its budget of the open connections (one of four)', async () => {
  const s = await fake({ latencyMs: 20 });
  for (let i = 0; i < 4; i++) addYencArticle(s, `g${i}@t`, 1000);
  for (let i = 0; i < 8; i++) addYencArticle(s, `h${i}@t`, 1000);
  const p = pool([provider(s, { max_connections: 4 })], { pipelineDepth: 1, maxPipelineDepth: 1 });
  // the player opens all four connections, then pauses (it still counts as reading for its linger)
  await Promise.all(Array.from({ length: 4 }, (_, i) => p.body(`g${i}@t`, { priority: 'stream', stream: 1 })));
  await Promise.all(
    Array.from({ length: 8 }, (_, i) => p.body(`h${i}@t`, { priority: 'stream', reader: 'scanner', stream: 2 })),
  );
  const scanConns = new Set(Array.from({ length: 8 }, (_, i) => s.stats.bodyConnection[`<h${i}@t>`]));
  assert.equal(scanConns.size, 1, `the scan ran on connections ${[...scanConns].join(', ')}`);
});
