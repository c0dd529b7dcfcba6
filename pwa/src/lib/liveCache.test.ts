import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient } from '@tanstack/react-query';
import { holdLiveUpdates, liveCacheUpdater } from './liveCache';
import type { LiveEventMessage } from '../api/types';

// Live events as cache updates: a burst makes a list stale once; a held list waits until its release.
const added = (id: number) =>
  ({
    type: 'event',
    topic: 'queue.item.added',
    data: { id, name: 'x', category: null, status: 'pending', paused: false },
  }) as LiveEventMessage;
const gathered = () => new Promise((r) => setTimeout(r, 150));

function client() {
  const qc = new QueryClient();
  qc.setQueryData(['queue', 'list', { page: 1 }], { data: [] });
  qc.setQueryData(['queue', 'stats'], { total_queued: 0 });
  qc.setQueryData(['health', 'stats'], { total: 0 });
  const stale = (key: unknown[]) => qc.getQueryState(key)?.isInvalidated ?? false;
  return { qc, stale };
}

test('queue events make the queue queries stale, not the others; a metrics tick replaces its data', async () => {
  const { qc, stale } = client();
  const live = liveCacheUpdater(qc);
  live.event(added(1));
  live.event(added(2));
  await gathered();
  assert.equal(stale(['queue', 'list', { page: 1 }]), true);
  assert.equal(stale(['queue', 'stats']), true);
  assert.equal(stale(['health', 'stats']), false);
  live.event({ type: 'event', topic: 'pool.metrics.tick', data: { x: 1 } } as unknown as LiveEventMessage);
  assert.deepEqual(qc.getQueryData(['system', 'pool', 'metrics']), { x: 1 });
});

test('a held list is left alone while held and made stale on release when an event came', async () => {
  const { qc, stale } = client();
  const live = liveCacheUpdater(qc);
  const release = holdLiveUpdates(['queue', 'list']);
  live.event(added(3));
  await gathered();
  assert.equal(stale(['queue', 'list', { page: 1 }]), false);
  assert.equal(stale(['queue', 'stats']), true);
  release();
  assert.equal(stale(['queue', 'list', { page: 1 }]), true);
});

test('stream progress makes only the open streams stale; an opened or closed stream all of the streams', async () => {
  const { qc } = client();
  qc.setQueryData(['streams', 'open'], { streams: [] });
  qc.setQueryData(['streams', 'history'], { streams: [] });
  const stale = (key: unknown[]) => qc.getQueryState(key)?.isInvalidated ?? false;
  const live = liveCacheUpdater(qc);
  const progress = { stream_id: '1', bytes_sent: 1, position: 1, ttfb_ms: 1, stalls: 0, stalled_ms: 0 };
  live.event({ type: 'event', topic: 'stream.progress', data: progress });
  await gathered();
  assert.equal(stale(['streams', 'open']), true);
  assert.equal(stale(['streams', 'history']), false);
  live.event({ type: 'event', topic: 'stream.closed', data: { ...progress, reason: 'done' } });
  await gathered();
  assert.equal(stale(['streams', 'history']), true);
});
