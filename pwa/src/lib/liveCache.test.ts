import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { holdLiveUpdates, liveCacheUpdater } from './liveCache';
import { LIVE_TOPICS, type LiveEventMessage } from '../api/types';
import { configKeys } from '../features/config/configKeys';
import { providerKeys } from '../features/config/sections/providers/providerKeys';
import { filesKeys } from '../features/files/filesKeys';
import { healthKeys } from '../features/health/healthKeys';
import { queueKeys } from '../features/queue/queueKeys';
import type { QueueListParams } from '../features/queue/queueApi';
import { streamsKeys } from '../features/streams/streamsKeys';

// Live events as cache updates: a burst makes a list stale once; a held list waits until its release.
const added = (id: number) =>
  ({
    type: 'event',
    topic: 'queue.item.added',
    data: { id, name: 'x', category: null, status: 'pending', paused: false },
  }) as LiveEventMessage;
const PAGE_ONE = queueKeys.list({ page: 1 } as QueueListParams);
const gathered = () => new Promise((r) => setTimeout(r, 150));

function client() {
  const qc = new QueryClient();
  qc.setQueryData(PAGE_ONE, { data: [] });
  qc.setQueryData(queueKeys.stats, { total_queued: 0 });
  qc.setQueryData(healthKeys.stats, { total: 0 });
  const stale = (key: QueryKey) => qc.getQueryState(key)?.isInvalidated ?? false;
  return { qc, stale };
}

test('queue events make the queue queries stale, not the others; a metrics tick replaces its data', async () => {
  const { qc, stale } = client();
  const live = liveCacheUpdater(qc);
  live.event(added(1));
  live.event(added(2));
  await gathered();
  assert.equal(stale(PAGE_ONE), true);
  assert.equal(stale(queueKeys.stats), true);
  assert.equal(stale(healthKeys.stats), false);
  live.event({ type: 'event', topic: 'pool.metrics.tick', data: { x: 1 } } as unknown as LiveEventMessage);
  assert.deepEqual(qc.getQueryData(providerKeys.poolMetrics), { x: 1 });
});

test('a held list is left alone while held and made stale on release when an event came', async () => {
  const { qc, stale } = client();
  const live = liveCacheUpdater(qc);
  const release = holdLiveUpdates(queueKeys.lists);
  live.event(added(3));
  await gathered();
  assert.equal(stale(PAGE_ONE), false);
  assert.equal(stale(queueKeys.stats), true);
  release();
  assert.equal(stale(PAGE_ONE), true);
});

test('stream progress makes only the open streams stale; an opened or closed stream all of the streams', async () => {
  const { qc } = client();
  qc.setQueryData(streamsKeys.open, { streams: [] });
  qc.setQueryData(streamsKeys.history, { streams: [] });
  const stale = (key: QueryKey) => qc.getQueryState(key)?.isInvalidated ?? false;
  const live = liveCacheUpdater(qc);
  const progress = { stream_id: '1', bytes_sent: 1, position: 1, ttfb_ms: 1, stalls: 0, stalled_ms: 0 };
  live.event({ type: 'event', topic: 'stream.progress', data: progress });
  await gathered();
  assert.equal(stale(streamsKeys.open), true);
  assert.equal(stale(streamsKeys.history), false);
  live.event({ type: 'event', topic: 'stream.closed', data: { ...progress, reason: 'done' } });
  await gathered();
  assert.equal(stale(streamsKeys.history), true);
});

test('every topic the console acts on reaches its feature: provider states refetch the providers, files the listings', async () => {
  const { qc, stale } = client();
  qc.setQueryData(providerKeys.poolMetrics, { providers: [] });
  qc.setQueryData(filesKeys.listing('/movies', false), []);
  qc.setQueryData(configKeys.mountStatus, { mounted: true });
  const live = liveCacheUpdater(qc);
  live.event({ type: 'event', topic: 'provider.state.changed', data: {} } as LiveEventMessage);
  live.event({ type: 'event', topic: 'file.removed', data: { paths: ['/movies/a.mkv'] } });
  await gathered();
  assert.equal(stale(providerKeys.poolMetrics), true);
  assert.equal(stale(filesKeys.listing('/movies', false)), true);
  assert.equal(stale(configKeys.mountStatus), false);
  assert.equal(stale(healthKeys.stats), false);
  live.event({ type: 'event', topic: 'mount.state.changed', data: { mounted: false, mount_point: '/m', error: '' } });
  await gathered();
  assert.equal(stale(configKeys.mountStatus), true);
  assert.ok(LIVE_TOPICS.includes('provider.state.changed'));
});
