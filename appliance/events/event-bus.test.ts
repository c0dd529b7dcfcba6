import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../logging/logger.js';
import { EventBus } from './event-bus.js';

interface TestEvents {
  ping: { n: number };
  pong: { text: string };
}

function quietLogger() {
  const lines: string[] = [];
  const logger = createLogger('test');
  logger.setLevel('error');
  logger.setSink((line) => lines.push(line));
  return { logger, lines };
}

test('delivers synchronously, in subscription order, only to the named event', () => {
  const bus = new EventBus<TestEvents>();
  const seen: string[] = [];
  bus.on('ping', (p) => seen.push(`a${p.n}`));
  bus.on('ping', (p) => seen.push(`b${p.n}`));
  bus.on('pong', (p) => seen.push(`pong ${p.text}`));
  bus.emit('ping', { n: 1 });
  assert.deepEqual(seen, ['a1', 'b1']);
  bus.emit('pong', { text: 'x' });
  assert.deepEqual(seen, ['a1', 'b1', 'pong x']);
});

test('an event emitted by a subscriber reaches everyone after the event in hand', () => {
  const bus = new EventBus<TestEvents>();
  const seen: string[] = [];
  bus.on('ping', (p) => {
    seen.push(`first ping ${p.n}`);
    if (p.n === 1) bus.emit('ping', { n: 2 });
    bus.emit('pong', { text: `after ${p.n}` });
    seen.push(`first done ${p.n}`);
  });
  bus.on('ping', (p) => seen.push(`second ping ${p.n}`));
  bus.on('pong', (p) => seen.push(`pong ${p.text}`));
  bus.emit('ping', { n: 1 });
  assert.deepEqual(seen, [
    'first ping 1',
    'first done 1',
    'second ping 1',
    'first ping 2',
    'first done 2',
    'second ping 2',
    'pong after 1',
    'pong after 2',
  ]);
});

test('on returns an unsubscribe; hasListeners follows it', () => {
  const bus = new EventBus<TestEvents>();
  assert.equal(bus.hasListeners('ping'), false);
  const seen: number[] = [];
  const off = bus.on('ping', (p) => seen.push(p.n));
  assert.equal(bus.hasListeners('ping'), true);
  assert.equal(bus.hasListeners('pong'), false);
  bus.emit('ping', { n: 1 });
  off();
  off(); // twice is harmless
  bus.emit('ping', { n: 2 });
  assert.deepEqual(seen, [1]);
  assert.equal(bus.hasListeners('ping'), false);
});

test('a subscriber that unsubscribes during an emit does not skip the others', () => {
  const bus = new EventBus<TestEvents>();
  const seen: string[] = [];
  const off = bus.on('ping', () => {
    seen.push('once');
    off();
  });
  bus.on('ping', () => seen.push('always'));
  bus.emit('ping', { n: 1 });
  bus.emit('ping', { n: 2 });
  assert.deepEqual(seen, ['once', 'always', 'always']);
});

test('a throwing subscriber is logged and breaks neither the emitter nor the others', async () => {
  const { logger, lines } = quietLogger();
  const bus = new EventBus<TestEvents>(logger);
  const seen: number[] = [];
  bus.on('ping', () => {
    throw new Error('subscriber bug');
  });
  bus.on('ping', () => Promise.reject(new Error('async subscriber bug')) as unknown as void);
  bus.on('ping', (p) => seen.push(p.n));
  assert.doesNotThrow(() => bus.emit('ping', { n: 7 }));
  assert.deepEqual(seen, [7]);
  await new Promise((r) => setImmediate(r));
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /subscriber bug/);
  assert.match(lines[0]!, /"event":"ping"/);
  assert.match(lines[1]!, /async subscriber bug/);
});

test('clear drops every subscriber', () => {
  const bus = new EventBus<TestEvents>();
  let calls = 0;
  bus.on('ping', () => calls++);
  bus.clear();
  bus.emit('ping', { n: 1 });
  assert.equal(calls, 0);
  assert.equal(bus.hasListeners('ping'), false);
});
