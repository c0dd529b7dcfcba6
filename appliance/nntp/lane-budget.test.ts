import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../clock/manual-clock.js';
import { LaneBudget, PLAYER_LINGER_MS } from './lane-budget.js';
import { createRequest, type PoolRequest } from './pool-request.js';
import type { PooledConnection, ProviderState } from './provider-state.js';
import type { ReaderKind, RequestPriority } from './types.js';

/** A provider of `n` open connections (only what the budget reads of it). */
function provider(n: number) {
  const conns = Array.from({ length: n }, () => ({ conn: { inflight: 0 } }) as unknown as PooledConnection);
  const p = { connections: new Set(conns), connectionLimit: () => n } as unknown as ProviderState;
  return { p, conns };
}

let ids = 0;
const req = (priority: RequestPriority, reader?: ReaderKind, stream?: number, kind: 'body' | 'stat' = 'body') =>
  createRequest(kind, `<r${ids++}@t>`, priority, undefined, 0, () => undefined, { reader, stream });

/** A command on the wire of `pc`, as the pool counts it. */
function run(b: LaneBudget, r: PoolRequest, pc: PooledConnection): void {
  b.started(r, pc);
  (pc.conn as { inflight: number }).inflight++;
}

test('alone, a scanner (or a health check) may hold every connection', () => {
  const clock = new ManualClock();
  const b = new LaneBudget(0.25);
  const { p, conns } = provider(8);
  for (const pc of conns) {
    const r = req('stream', 'scanner');
    assert.ok(b.allows(r, p, pc, clock.now()));
    run(b, r, pc);
  }
  assert.equal(b.held(p), 8);
  assert.ok(b.allows(req('health'), p, 'open', clock.now()));
});

test('while a player waits, background work holds at most its share of the connections', () => {
  const clock = new ManualClock();
  const b = new LaneBudget(0.25);
  const { p, conns } = provider(8);
  const player = req('stream', 'player', 1);
  b.submitted(player, clock.now());
  const placed: PooledConnection[] = [];
  for (const pc of conns) {
    const r = req('stream', 'scanner', 2);
    if (!b.allows(r, p, pc, clock.now())) continue;
    run(b, r, pc);
    placed.push(pc);
  }
  assert.equal(placed.length, 2, 'a quarter of 8 connections');
  // nor a new connection, nor an import or a health check
  assert.equal(b.allows(req('import'), p, 'open', clock.now()), false);
  assert.equal(b.allows(req('health'), p, conns[5]!, clock.now()), false);
  // a connection it holds already a health check may pipeline on, a scanner's read never (a player would wait)
  assert.ok(b.allows(req('health', undefined, undefined, 'stat'), p, placed[0]!, clock.now()));
  assert.equal(b.allows(req('stream', 'scanner'), p, placed[0]!, clock.now()), false);
  // a player never queues behind background work, and takes any other connection
  assert.equal(b.allows(player, p, placed[0]!, clock.now()), false);
  assert.ok(b.allows(player, p, conns[7]!, clock.now()));
  assert.ok(b.allows(player, p, 'open', clock.now()));
});

test('a connection opening for background work counts against the budget until it settles', () => {
  const clock = new ManualClock();
  const b = new LaneBudget(0.25);
  const { p } = provider(4);
  b.submitted(req('stream'), clock.now());
  const scan = req('stream', 'scanner');
  assert.ok(b.allows(scan, p, 'open', clock.now()));
  b.placed(scan, p, 'open');
  assert.equal(b.allows(req('stream', 'scanner'), p, 'open', clock.now()), false, 'one of 4 is the floor of 1');
  b.openSettled(scan, p);
  assert.ok(b.allows(req('stream', 'scanner'), p, 'open', clock.now()));
});

test('the budget holds for PLAYER_LINGER_MS after the player’s last request, then background gets everything', async () => {
  const clock = new ManualClock();
  const b = new LaneBudget(0.25);
  const { p, conns } = provider(4);
  run(b, req('health'), conns[0]!);
  const player = req('stream', 'player', 1);
  b.submitted(player, clock.now());
  assert.equal(b.lingerEndsAt(clock.now()), undefined, 'its request still waits');
  await clock.advance(60_000);
  assert.equal(b.allows(req('health'), p, conns[1]!, clock.now()), false, 'a waiting player holds the budget');
  b.settled(player, clock.now());
  assert.equal(b.allows(req('health'), p, conns[1]!, clock.now()), false);
  assert.equal(b.lingerEndsAt(clock.now()), clock.now() + PLAYER_LINGER_MS);
  await clock.advance(PLAYER_LINGER_MS);
  assert.ok(b.allows(req('health'), p, conns[1]!, clock.now()));
  assert.equal(b.lingerEndsAt(clock.now()), undefined);
});

test('commands in flight are counted per stream, for the players’ turns', () => {
  const b = new LaneBudget();
  const { conns } = provider(2);
  const a = req('stream', 'player', 7);
  b.started(a, conns[0]!);
  b.started(req('stream', 'player', 7), conns[1]!);
  assert.equal(b.inFlight(7), 2);
  b.ended(a, conns[0]!);
  assert.equal(b.inFlight(7), 1);
  assert.equal(b.inFlight(8), 0);
});
