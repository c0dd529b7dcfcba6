import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PriorityQueue, laneOf, type Lane } from './request-queue.js';

interface Item {
  name: string;
  lane: Lane;
  stream?: number;
  urgent?: boolean;
}

const order = (q: PriorityQueue<Item>): string[] => {
  const out: string[] = [];
  q.drain((it) => {
    out.push(it.name);
    return 'taken';
  });
  return out;
};

test('a request gets its lane from its priority, reader and read-ahead', () => {
  assert.equal(laneOf('stream', {}), 'play');
  assert.equal(laneOf('stream', { reader: 'player', readAhead: true }), 'play-ahead');
  assert.equal(laneOf('stream', { reader: 'scanner', readAhead: true }), 'scan');
  assert.equal(laneOf('health', { reader: 'player' }), 'health');
  assert.equal(laneOf('import', {}), 'import');
});

test("a player's reads go before its read-ahead, then a scanner's reads queued earlier, then health and imports", () => {
  const q = new PriorityQueue<Item>();
  q.push({ name: 'import', lane: 'import' });
  q.push({ name: 'health', lane: 'health' });
  q.push({ name: 'scan', lane: 'scan' });
  q.push({ name: 'ahead', lane: 'play-ahead' });
  q.push({ name: 'play', lane: 'play' });
  q.unshift({ name: 'urgent', lane: 'play', urgent: true });
  assert.deepEqual(order(q), ['urgent', 'play', 'ahead', 'scan', 'health', 'import']);
  assert.equal(q.size, 0);
});

test('players take turns by their commands in flight: the one that asked first does not take the link', () => {
  const inFlight = new Map([
    [1, 3],
    [2, 0],
  ]);
  const q = new PriorityQueue<Item>((s) => inFlight.get(s) ?? 0);
  for (let i = 0; i < 4; i++) q.push({ name: `a${i}`, lane: 'play-ahead', stream: 1 });
  for (let i = 0; i < 4; i++) q.push({ name: `b${i}`, lane: 'play-ahead', stream: 2 });
  q.push({ name: 'c0', lane: 'play-ahead', stream: 3 });
  // ranks: a0..a3 = 3..6, b0..b3 = 0..3, c0 = 0; ties keep the queue's order
  assert.deepEqual(order(q), ['b0', 'c0', 'b1', 'b2', 'a0', 'b3', 'a1', 'a2', 'a3']);
});

test('skipped requests keep their place; stop ends the pass', () => {
  const q = new PriorityQueue<Item>();
  for (const name of ['x', 'y', 'z']) q.push({ name, lane: 'scan' });
  q.push({ name: 'h', lane: 'health' });
  const seen: string[] = [];
  q.drain((it) => {
    seen.push(it.name);
    if (it.name === 'y') return 'stop';
    return it.name === 'x' ? 'skip' : 'taken';
  });
  assert.deepEqual(seen, ['x', 'y']);
  assert.deepEqual(order(q), ['x', 'y', 'z', 'h']);
});

test('a read-ahead request a player now waits for goes to the head of the player lane, urgent', () => {
  const q = new PriorityQueue<Item>(() => 0);
  q.push({ name: 'read', lane: 'play', stream: 1 });
  for (const name of ['ahead1', 'ahead2', 'ahead3']) q.push({ name, lane: 'play-ahead', stream: 2 });
  q.push({ name: 'scan', lane: 'scan' });
  assert.ok(q.promote((it) => it.name === 'ahead3'));
  assert.equal(
    q.promote((it) => it.name === 'scan'),
    false,
    "a scanner's fetch keeps its lane",
  );
  assert.equal(
    q.promote((it) => it.name === 'gone'),
    false,
  );
  assert.deepEqual(order(q), ['ahead3', 'read', 'ahead1', 'ahead2', 'scan']);
});
