/**
 * Connection caps (docs/nntp.md, "Connection caps"): an account that allows fewer connections than max_connections
 * answers "481 Too many connections" (or 502 / 482 with such a text) at the greeting or at AUTHINFO; that is
 * capacity, not a wrong password.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeNntpOptions, FakeNntpServer } from '../../tests/support/fake-nntp/server.js';
import { addYencArticle, fakeNntpFixture, fakeProvider } from '../../tests/support/fake-nntp/fixtures.js';
import { ManualClock } from '../clock/manual-clock.js';
import { NntpConnection } from './connection.js';
import {
  AuthError,
  ProviderCapacityError,
  ProviderRefusedError,
  articleEvidence,
  capacityRefusal,
  type NntpError,
} from './errors.js';
import { NntpPool, type PoolOptions } from './pool.js';
import { CAP_EMPTY_PROBE_BASE_MS, CAP_PROBE_BASE_MS } from './provider-capacity.js';
import type { ProviderStateEvent } from './provider-state.wire.js';
import type { ProviderConfig } from './types.js';

const { fake: start, closeAfterTests } = fakeNntpFixture();
const account = { username: 'u', password: 'secret' };

/** A fake with an account capped at `max` connections, holding a0@t ... a19@t; returns it and the articles. */
async function capped(max: number, at: 'greeting' | 'auth', reply?: string, extra: FakeNntpOptions = {}) {
  const s = await start({ ...account, connectionCap: { max, at, reply }, ...extra });
  const data = Array.from({ length: 20 }, (_, i) => addYencArticle(s, `a${i}@t`, 3000));
  return { s, data };
}

function pool(s: FakeNntpServer, opts: PoolOptions = {}, over: Partial<ProviderConfig> = {}): NntpPool {
  const cfg = fakeProvider(s, { id: 'p', max_connections: 8, ...over });
  return closeAfterTests(
    new NntpPool([cfg], { connectTimeoutMs: 60_000, stallTimeoutMs: 60_000, keepaliveMs: 0, ...opts }),
  );
}

/**
 * `n` BODY requests at once; every one must come back with its bytes. Then waits (in bounded turns of the event
 * loop, no wall clock) until no connection is on its way: a connection opened beside a pipelined request may still
 * be handshaking when the last article arrived, and the server sees it before the pool has it.
 */
async function burst(p: NntpPool, data: Buffer[], n = 8, s?: FakeNntpServer): Promise<void> {
  const got = await Promise.all(Array.from({ length: n }, (_, i) => p.body(`a${i % data.length}@t`)));
  got.forEach((a, i) => assert.ok(a.data.equals(data[i % data.length]!), `article ${i} byte-exact`));
  if (!s) return;
  const quiet = new ManualClock();
  for (let i = 0, calm = 0; i < 200 && calm < 4; i++) {
    await quiet.advance(0);
    calm = s.stats.activeConnections === p.metrics().active_connections ? calm + 1 : 0;
  }
}

test('texts providers refuse over capacity with are capacity; a wrong password or a bare 502 are not', () => {
  for (const [code, text] of [
    [481, 'Too many connections'],
    [502, 'too many connections for your user'],
    [482, 'Connection limit reached (8)'],
    [400, 'Maximum connections exceeded, try again later'],
    [481, 'Max connections for this account reached'],
    [502, 'You are already connected from another host'],
    [481, 'Too many sessions'],
  ] as const)
    assert.ok(capacityRefusal(code, text) instanceof ProviderCapacityError, `${code} ${text}`);
  for (const [code, text] of [
    [481, 'Authentication failed'],
    [482, 'Authentication rejected'],
    [452, 'Authorization rejected'],
    [502, 'Service unavailable'],
    [502, 'Permission denied'],
    [430, 'too many connections'],
  ] as const)
    assert.equal(capacityRefusal(code, text), undefined, `${code} ${text}`);
});

test('a connection: capacity at the greeting and at AUTHINFO, a plain 502 refusal, a wrong password', async () => {
  const open = (s: FakeNntpServer, password = account.password) =>
    NntpConnection.open({ ...fakeProvider(s), password, insecureTls: false, connectTimeoutMs: 60_000 });
  const greeting = await start({ ...account, greeting: '502 too many connections for your user' });
  await assert.rejects(open(greeting), ProviderCapacityError);
  const plain = await start({ ...account, greeting: '502 Service unavailable' });
  await assert.rejects(open(plain), ProviderRefusedError);
  const { s } = await capped(0, 'auth');
  await assert.rejects(open(s), (err: NntpError) => err instanceof ProviderCapacityError && err.status === 481);
  await assert.rejects(open(s, 'wrong'), AuthError);
});

for (const [at, reply] of [
  ['auth', '481 Too many connections'],
  ['greeting', '502 too many connections for your user'],
] as const) {
  test(`cap of 3 at ${at}, max_connections 8: 8 BODYs at once succeed on 3 connections, provider serving`, async () => {
    const { s, data } = await capped(3, at, reply);
    const logs: Array<[string, Record<string, unknown> | undefined]> = [];
    const changes: Array<[string, string, number | null, number]> = [];
    const logger = {
      warn: (msg: string, f?: Record<string, unknown>) => logs.push([msg, f]),
      info: () => undefined,
      debug: () => undefined,
      error: () => undefined,
    };
    const p = pool(s, {
      logger: logger as unknown as PoolOptions['logger'],
      events: {
        emit: (_, e) => changes.push([e.id, e.change, e.allowed_connections, e.max_connections]),
      },
    });
    await burst(p, data, 8, s);
    assert.ok(s.stats.capRefusals > 0, 'the provider refused connections over its cap');
    assert.equal(s.stats.maxAdmitted, 3);
    const m = p.metrics().providers[0]!;
    assert.equal(m.cooling_down, false, 'not put aside');
    assert.equal(m.allowed_connections, 3);
    assert.equal(m.max_connections, 8);
    assert.equal(m.errors, 0, 'a capacity refusal is no failed command');
    assert.deepEqual(changes, [['p', 'cap_changed', 3, 8]], 'one change, reported once');
    const capLogs = logs.filter(([msg]) => msg === 'provider allows fewer connections than configured');
    assert.equal(capLogs.length, 1);
    assert.equal(capLogs[0]![1]!.allowed, 3);
    assert.equal(logs.filter(([msg]) => msg === 'provider put aside').length, 0);

    // It stops opening past the cap: more bursts, no more refusals.
    const refusals = s.stats.capRefusals;
    await burst(p, data, 8, s);
    await burst(p, data, 16, s);
    assert.equal(s.stats.capRefusals, refusals);
    assert.equal(s.stats.maxAdmitted, 3);
  });
}

test('a wrong password still puts the provider aside as before', async () => {
  const { s } = await capped(3, 'auth');
  const p = pool(s, {}, { password: 'wrong' });
  await assert.rejects(p.body('a0@t'), AuthError);
  const m = p.metrics().providers[0]!;
  assert.equal(m.cooling_down, true);
  assert.equal(m.allowed_connections, null);
  assert.match(m.last_error ?? '', /Authentication failed/);
});

test('a cap lifted later is found again after the probe backoff (injected clock)', async () => {
  const { s, data } = await capped(3, 'auth');
  const clock = new ManualClock();
  const p = pool(s, { clock });
  await burst(p, data, 8, s);
  assert.equal(p.metrics().providers[0]!.allowed_connections, 3);
  s.options.connectionCap!.max = 8; // another app let go of its connections

  // Before the backoff: no connection above the cap is tried.
  await clock.advance(CAP_PROBE_BASE_MS - 1000);
  await burst(p, data, 16, s);
  assert.equal(s.stats.maxAdmitted, 3);
  assert.equal(p.metrics().providers[0]!.allowed_connections, 3);

  // After it: one above the cap at a time, each accepted one raising it, up to max_connections.
  await clock.advance(1000);
  for (let round = 0; round < 20 && p.metrics().providers[0]!.allowed_connections !== null; round++)
    await burst(p, data, 16, s);
  assert.equal(p.metrics().providers[0]!.allowed_connections, null, 'every configured connection allowed again');
  assert.ok(s.stats.maxAdmitted > 3, `${s.stats.maxAdmitted} connections at once`);
});

test('a refused probe backs off longer, and keeps the connections that work', async () => {
  const { s, data } = await capped(3, 'auth');
  const clock = new ManualClock();
  const p = pool(s, { clock });
  await burst(p, data, 8, s);
  const refusals = s.stats.capRefusals;
  await clock.advance(CAP_PROBE_BASE_MS);
  await burst(p, data, 16, s);
  assert.equal(s.stats.capRefusals, refusals + 1, 'one probe, refused');
  assert.equal(p.metrics().providers[0]!.allowed_connections, 3);
  await clock.advance(CAP_PROBE_BASE_MS);
  await burst(p, data, 16, s);
  assert.equal(s.stats.capRefusals, refusals + 1, 'the second probe waits twice as long');
  await clock.advance(CAP_PROBE_BASE_MS);
  await burst(p, data, 16, s);
  assert.equal(s.stats.capRefusals, refusals + 2);
});

test('no connection allowed at all: requests wait for the probe, or fail retryable, never as missing', async () => {
  const { s, data } = await capped(0, 'auth');
  const clock = new ManualClock();
  const states: Array<[string, string, number | null]> = [];
  const events = {
    emit: (_: unknown, e: ProviderStateEvent) => states.push([e.state, e.change, e.allowed_connections]),
  };
  const waiting = pool(s, { clock, coolingWaitMs: 10_000, events });
  const read = waiting.body('a0@t');
  for (let i = 0; i < 50 && waiting.metrics().providers[0]!.allowed_connections === null; i++) await clock.advance(0);
  assert.equal(waiting.metrics().providers[0]!.allowed_connections, 0);
  assert.deepEqual(states, [['cooling_down', 'cap_changed', 0]], 'down once: it allows no connection');
  s.options.connectionCap!.max = 3;
  await clock.advance(CAP_EMPTY_PROBE_BASE_MS + 1);
  assert.ok((await read).data.equals(data[0]!), 'served once the provider allowed a connection');
  assert.equal(waiting.metrics().providers[0]!.cooling_down, false);
  assert.deepEqual(states[1], ['usable', 'answered', 1], 'back once, with the cap it showed, in one event');
  assert.equal(states.filter(([state]) => state === 'cooling_down').length, 1);

  s.options.connectionCap!.max = 0;
  const { s: none } = await capped(0, 'auth');
  const impatient = pool(none, { clock, coolingWaitMs: 1000 });
  const err = await impatient.body('a0@t').then(
    () => assert.fail('served with no connection allowed'),
    (e: NntpError) => e,
  );
  assert.ok(err instanceof ProviderCapacityError, `${err.name}: ${err.message}`);
  assert.equal(err.retryable, true);
  assert.equal(articleEvidence(err), undefined);
  assert.equal(await impatient.stat('a1@t').catch((e: NntpError) => e.kind), 'provider_capacity');
});

test('a primary that allows no connection: requests go to the next provider, and a 430 there is no verdict', async () => {
  const { s: full } = await capped(0, 'auth');
  const { s: other, data } = await capped(8, 'auth');
  other.setBehaviour('a5@t', 'missing');
  const p = closeAfterTests(
    new NntpPool([fakeProvider(full, { id: 'full', max_connections: 8 }), fakeProvider(other, { id: 'other' })], {
      connectTimeoutMs: 60_000, // only the outages these tests play end a connection: a busy machine must not time one out
      keepaliveMs: 0,
      coolingWaitMs: 0,
    }),
  );
  await burst(p, data.slice(0, 4), 4);
  const err = await p.body('a5@t').then(
    () => assert.fail('a5 is on no provider that answered'),
    (e: NntpError) => e,
  );
  assert.equal(articleEvidence(err), undefined, `${err.name}: ${err.message}`);
  assert.equal(err.kind, 'provider_capacity');
  const [m] = p.metrics().providers;
  assert.equal(m!.allowed_connections, 0);
  assert.equal(m!.cooling_down, false);
});
