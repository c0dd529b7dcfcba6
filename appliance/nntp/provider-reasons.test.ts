/**
 * Provider states with reasons (docs/nntp.md, "Provider states"; issue 33 item 3): a server that refuses the
 * password, one that caps connections, one that says its quota is spent, and one that is closed each show their own
 * reason, and a re-probe (on its own after a settings change, or asked for) brings each back to ok.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeNntpServer } from '../../tests/support/fake-nntp/server.js';
import { addYencArticle, fakeNntpFixture, fakeProvider } from '../../tests/support/fake-nntp/fixtures.js';
import { freePort } from '../../tests/support/free-port.js';
import { ManualClock } from '../clock/manual-clock.js';
import { NntpPool } from './pool.js';
import { ACCOUNT_REPROBE_FIRST_MS, ACCOUNT_REPROBE_MAX_MS, ProviderLiveness } from './provider-liveness.js';
import { ProviderState } from './provider-state.js';
import { reasonOf } from './provider-reason.js';
import type { ProviderStateEvent } from './provider-state.wire.js';
import type { ProviderConfig } from './types.js';
import { AuthError, ProviderCapacityError, ProviderRefusedError, TimeoutError } from './errors.js';

const { fake: start, closeAfterTests } = fakeNntpFixture();
const account = { username: 'u', password: 'secret' };

/** A pool of one provider that records every state it announces; `until` waits for one that matches. */
function watched(cfg: ProviderConfig) {
  const seen: ProviderStateEvent[] = [];
  const waiters: Array<{ ok: (e: ProviderStateEvent) => boolean; resolve: (e: ProviderStateEvent) => void }> = [];
  const sink = {
    emit(_: 'provider.state.changed', e: ProviderStateEvent) {
      seen.push(e);
      for (const w of waiters.splice(0)) {
        if (w.ok(e)) w.resolve(e);
        else waiters.push(w);
      }
    },
  };
  const pool = closeAfterTests(
    new NntpPool([cfg], {
      connectTimeoutMs: 60_000, // only the outages these tests play end a connection: a busy machine must not time one out
      stallTimeoutMs: 60_000,
      keepaliveMs: 0,
      breakerThreshold: 1,
      coolingWaitMs: 0,
      events: sink,
    }),
  );
  const until = (ok: (e: ProviderStateEvent) => boolean) =>
    new Promise<ProviderStateEvent>((resolve) => {
      const found = seen.find(ok);
      if (found) resolve(found);
      else waiters.push({ ok, resolve });
    });
  return { pool, until, seen };
}

const metricsOf = (pool: NntpPool) => pool.metrics().providers[0]!;

test('the reason is read from the failure: a wrong password never reads as a cap, nor a cap as a password', () => {
  assert.equal(reasonOf(new AuthError('Authentication failed: 481 Authentication failed', 481)), 'auth_failed');
  assert.equal(
    reasonOf(new ProviderCapacityError('Connection limit reached: 481 Too many connections', 481)),
    'connection_limit',
  );
  assert.equal(reasonOf(new ProviderRefusedError('Provider refused: 502 Download quota exceeded', 502)), 'quota_spent');
  assert.equal(
    reasonOf(new AuthError('Authentication failed: 482 Data limit reached for this account', 482)),
    'quota_spent',
  );
  assert.equal(reasonOf(new ProviderRefusedError('Provider refused: 400 Throttled, slow down', 400)), 'throttled');
  assert.equal(reasonOf(new TimeoutError('Timed out')), 'unreachable');
});

test('a wrong password: blocked for auth_failed; the right one brings it back', async () => {
  const s = await start(account);
  addYencArticle(s, 'a@t', 3000);
  const cfg = fakeProvider(s, { id: 'p', password: 'wrong' });
  const { pool, until } = watched(cfg);
  await assert.rejects(pool.body('a@t'));
  const down = await until((e) => e.health === 'blocked');
  assert.equal(down.reason, 'auth_failed');
  assert.deepEqual([metricsOf(pool).health, metricsOf(pool).reason], ['blocked', 'auth_failed']);
  pool.updateProviders([{ ...cfg, password: 'secret' }]);
  const back = await until((e) => e.health === 'ok');
  assert.equal(back.reason, null);
  assert.equal((await pool.body('a@t')).data.length, 3000);
});

test('a connection cap: degraded for connection_limit, never auth_failed, and it still serves', async () => {
  const s = await start({ ...account, connectionCap: { max: 1, at: 'auth' } });
  const ids = Array.from({ length: 6 }, (_, i) => `c${i}@t`);
  for (const id of ids) addYencArticle(s, id, 3000);
  const { pool, until } = watched(fakeProvider(s, { id: 'p', max_connections: 4 }));
  await Promise.all(ids.map((id) => pool.body(id)));
  const capped = await until((e) => e.allowed_connections !== null);
  assert.deepEqual([capped.health, capped.reason], ['degraded', 'connection_limit']);
  assert.deepEqual([metricsOf(pool).health, metricsOf(pool).reason], ['degraded', 'connection_limit']);
});

test('a spent quota: blocked for quota_spent; a manual re-probe brings it back once it serves again', async () => {
  const s = await start({ ...account, greeting: '502 Download quota exceeded for this account' });
  addYencArticle(s, 'q@t', 3000);
  const { pool, until } = watched(fakeProvider(s, { id: 'p' }));
  await assert.rejects(pool.body('q@t'));
  const down = await until((e) => e.health === 'blocked');
  assert.equal(down.reason, 'quota_spent');
  s.options.greeting = undefined;
  assert.equal(pool.reprobe('p'), true);
  await until((e) => e.health === 'ok');
  assert.equal(metricsOf(pool).health, 'ok');
});

test('a closed port: blocked for unreachable; a re-probe finds it once a server listens there', async () => {
  const port = await freePort();
  const cfg: ProviderConfig = {
    ...fakeProvider({ host: '127.0.0.1', port } as FakeNntpServer, { id: 'p' }),
    ...account,
  };
  const { pool, until } = watched(cfg);
  await assert.rejects(pool.body('z@t'));
  const down = await until((e) => e.health === 'blocked');
  assert.equal(down.reason, 'unreachable');
  assert.equal(pool.reprobe('nope'), false);
  const s = await FakeNntpServer.start(account, port);
  closeAfterTests({ close: () => s.close() });
  assert.equal(pool.reprobe('p'), true);
  await until((e) => e.health === 'ok');
});

test('a provider its account blocks is re-probed 15 min on, then 30, then every hour; an answer resets it', async () => {
  const clock = new ManualClock();
  const p = new ProviderState(fakeProvider({ host: '127.0.0.1', port: 1 } as FakeNntpServer, { id: 'p' }));
  let answer: 'refuse' | 'quota' | 'ok' = 'refuse';
  const probes: number[] = [];
  const liveness: ProviderLiveness = new ProviderLiveness({
    sink: undefined,
    clock,
    breakerCooldownMs: 30_000,
    logger: undefined,
    probe: (): Promise<unknown> => {
      probes.push(clock.now());
      if (answer === 'ok') return Promise.resolve(liveness.answered(p, clock.now()));
      const text = answer === 'quota' ? 'Provider refused: 502 Download quota exceeded' : 'Authentication failed: 481';
      return Promise.reject(answer === 'quota' ? new ProviderRefusedError(text, 502) : new AuthError(text, 481));
    },
  });
  const start = clock.now();
  p.lastReason = 'auth_failed';
  liveness.down(p, 'auth_failed');
  assert.equal(p.probe?.at, start + ACCOUNT_REPROBE_FIRST_MS);
  const waits: number[] = [];
  for (let i = 0; i < 3; i++) {
    const at = p.probe!.at;
    await clock.advance(at - clock.now() + 1);
    await until(() => probes.length === i + 1 && p.probe !== undefined && p.probe.at > at);
    waits.push(p.probe!.at - probes[i]!);
    if (i === 1) answer = 'quota'; // a quota spent keeps the same back-off
  }
  assert.deepEqual(waits, [2 * ACCOUNT_REPROBE_FIRST_MS, ACCOUNT_REPROBE_MAX_MS, ACCOUNT_REPROBE_MAX_MS]);
  assert.equal(p.lastReason, 'quota_spent');
  answer = 'ok';
  await clock.advance(p.probe!.at - clock.now() + 1);
  await until(() => !p.down);
  assert.equal(p.accountProbes, 0);
  liveness.stop();
});

/** Waits, turn by turn of the event loop, until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
}
