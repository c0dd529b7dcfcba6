import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIVE_DEFAULT_TOPICS, LIVE_TOPIC_TRAITS, LIVE_TOPICS, liveTopicsWhere } from './live.wire.js';

// Live topics are declared once (LIVE_TOPIC_TRAITS); every list of them is derived from it.
test('every list of live topics comes from the one table, in its order', () => {
  assert.deepEqual(LIVE_TOPICS, Object.keys(LIVE_TOPIC_TRAITS));
  assert.deepEqual(LIVE_DEFAULT_TOPICS, [
    'queue.item.added',
    'queue.item.changed',
    'queue.item.removed',
    'file.added',
    'file.removed',
    'file.moved',
  ]);
  assert.deepEqual(
    liveTopicsWhere((t) => t.scope === 'node'),
    ['provider.state.changed', 'pool.metrics.tick', 'mount.state.changed'],
  );
  // The console asks for every topic a connection gets by default, and for the frequent ones only on demand.
  const always = liveTopicsWhere((t) => t.console === 'always');
  for (const topic of LIVE_DEFAULT_TOPICS) assert.ok(always.includes(topic), topic);
  assert.deepEqual(
    liveTopicsWhere((t) => t.console === 'on_demand'),
    ['pool.metrics.tick', 'stream.progress'],
  );
});
