import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventBus, type SpoolEvents } from '../events/index.js';
import type { LiveTopic } from '../events/live.wire.js';
import { parseLiveClientMessage, TopicSubscribers } from '../http/live-topics.js';
import { forwardLiveEvents, type LivePublisher } from './live.js';

// Forwarding to the live channel: the bus is listened to only for topics a client wants, and each event is
// serialised once for all its subscribers.
const METRICS = {} as SpoolEvents['pool.metrics.tick'];
const RECORD: SpoolEvents['health.record.changed'] = { id: 1, path: '/a', change: 'updated', status: 'healthy' };

function endpoint() {
  const subs = new TopicSubscribers<string>();
  const sent: [string, string][] = [];
  let builds = 0;
  const live: LivePublisher = {
    publish(topic: LiveTopic, message: () => string) {
      const to = subs.of(topic);
      if (to.length === 0) return;
      builds++;
      const text = message();
      for (const c of to) sent.push([c, text]);
    },
    onDemand: (l) => subs.onDemand(l),
  };
  return { subs, sent, live, builds: () => builds };
}

test('nobody subscribed: the bus has no live listener, so a metrics tick is not even built', () => {
  const bus = new EventBus<SpoolEvents>();
  const { live } = endpoint();
  forwardLiveEvents(bus, live);
  assert.equal(bus.hasListeners('pool.metrics.tick'), false);
  assert.equal(bus.hasListeners('queue.item.added'), false);
});

test('a topic is listened to from its first subscriber to its last, and serialised once for all', () => {
  const bus = new EventBus<SpoolEvents>();
  const { subs, sent, live, builds } = endpoint();
  const stop = forwardLiveEvents(bus, live);
  subs.set('a', ['health.record.changed']);
  subs.set('b', ['health.record.changed', 'pool.metrics.tick']);
  assert.equal(bus.hasListeners('pool.metrics.tick'), true);
  bus.emit('health.record.changed', RECORD);
  const wire = JSON.stringify({ type: 'event', topic: 'health.record.changed', data: RECORD });
  assert.deepEqual(sent, [
    ['a', wire],
    ['b', wire],
  ]);
  assert.equal(builds(), 1);
  bus.emit('queue.item.added', { id: 1, name: 'x', category: null, status: 'pending', paused: false });
  assert.equal(sent.length, 2, 'nobody wanted the queue');
  subs.set('b', ['health.record.changed']);
  assert.equal(bus.hasListeners('pool.metrics.tick'), false, 'the last subscriber of the tick left');
  bus.emit('pool.metrics.tick', METRICS);
  subs.remove('a');
  subs.remove('b');
  assert.equal(bus.hasListeners('health.record.changed'), false);
  stop();
});

test('client messages: subscribe with known topics; anything else is a clear error', () => {
  const text = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;
  assert.deepEqual(parseLiveClientMessage(text('{"type":"subscribe","topics":["pool.metrics.tick"]}'), false), {
    type: 'subscribe',
    topics: ['pool.metrics.tick'],
  });
  assert.equal(parseLiveClientMessage(text('{"type":"subscribe","topics":["nope"]}'), false), 'unknown topics: nope');
  assert.equal(
    parseLiveClientMessage(text('{"type":"subscribe","topics":"queue"}'), false),
    'topics must be a list of names',
  );
  assert.equal(parseLiveClientMessage(text('hello'), false), 'not JSON');
  assert.match(String(parseLiveClientMessage(text('{"type":"x"}'), false)), /unknown message type/);
  assert.equal(parseLiveClientMessage(text('{}'), true), 'messages are JSON text');
});
