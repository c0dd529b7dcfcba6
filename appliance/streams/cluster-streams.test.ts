import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { memoryLogger } from '../logging/logger.js';
import {
  CLUSTER_STREAMS_TIMING,
  ClusterStreams,
  mergeStreams,
  nodeOfStreamId,
  type ClusterStreamsStore,
  type NodeStreams,
} from './cluster-streams.js';
import type { StreamInfo } from './streams.wire.js';

const stream = (id: string, path: string, bytes = 0): StreamInfo => ({
  id,
  path,
  size: 1000,
  front: 'webdav',
  client: {},
  reader_class: 'player',
  class_settled: true,
  opened_at: '2026-01-01T00:00:00.000Z',
  bytes_served: bytes,
  offset: bytes,
  rate_bps: 0,
  ttfb_ms: null,
  stalls: 0,
  stalled_ms: 0,
  duration_seconds: null,
  media_bitrate_bps: null,
  starved: false,
  buffered_bytes: null,
  connections: null,
  providers: [],
});

/** Rows by node with the (manual) time each was written; `others` leaves out the stale ones. */
class FakeStore implements ClusterStreamsStore {
  rows = new Map<string, { streams: StreamInfo[]; at: number }>();
  writes = 0;
  failing = false;
  constructor(private readonly clock: ManualClock) {}
  async put(node: string, streams: StreamInfo[]) {
    if (this.failing) throw new Error('connection lost');
    this.writes++;
    this.rows.set(node, { streams: structuredClone(streams), at: this.clock.now() });
  }
  async remove(node: string) {
    if (this.failing) throw new Error('connection lost');
    this.rows.delete(node);
  }
  async others(node: string, maxAgeMs: number): Promise<NodeStreams[]> {
    if (this.failing) throw new Error('connection lost');
    return [...this.rows]
      .filter(([n, r]) => n !== node && this.clock.now() - r.at < maxAgeMs)
      .map(([n, r]) => ({ node: n, streams: r.streams }));
  }
}

test('the merge keeps own ids, prefixes the others with their node and marks every stream with its node', () => {
  const merged = mergeStreams(
    'a',
    [stream('1', '/x')],
    [
      { node: 'b', streams: [stream('1', '/y'), stream('2', '/z')] },
      { node: 'a', streams: [stream('9', '/stale-copy-of-mine')] },
    ],
  );
  assert.deepEqual(
    merged.map((s) => [s.id, s.node, s.path]),
    [
      ['1', 'a', '/x'],
      ['b:1', 'b', '/y'],
      ['b:2', 'b', '/z'],
    ],
  );
  assert.equal(new Set(merged.map((s) => s.id)).size, merged.length, 'ids stay unique');
  assert.equal(nodeOfStreamId('b:1'), 'b');
  assert.equal(nodeOfStreamId('host-1:2:7'), 'host-1:2', 'a node id may hold a colon');
  assert.equal(nodeOfStreamId('7'), undefined);
});

test("each node sees the other one's streams; only changes are written, a live node is re-stamped", async () => {
  const clock = new ManualClock(0);
  const store = new FakeStore(clock);
  let onA: StreamInfo[] = [];
  const a = new ClusterStreams({ nodeId: 'a', store, local: () => onA, clock, logger: memoryLogger() });
  const b = new ClusterStreams({ nodeId: 'b', store, local: () => [stream('4', '/b')], clock, logger: memoryLogger() });
  a.start();
  b.start();
  await clock.advance(0);
  assert.deepEqual(
    (await b.list()).map((s) => s.id),
    ['4'],
    'nothing open on a: no row',
  );

  onA = [stream('1', '/movie.mkv', 10)];
  await clock.advance(CLUSTER_STREAMS_TIMING.intervalMs);
  assert.deepEqual(
    (await b.list()).map((s) => [s.id, s.node]),
    [
      ['4', 'b'],
      ['a:1', 'a'],
    ],
  );
  const writes = store.writes;
  await clock.advance(CLUSTER_STREAMS_TIMING.intervalMs);
  assert.equal(store.writes, writes, 'unchanged: not written again');
  // unchanged for long: re-stamped, so a live node's paused stream never goes stale
  await clock.advance(CLUSTER_STREAMS_TIMING.staleMs * 2);
  assert.deepEqual(
    (await b.list()).map((s) => s.id),
    ['4', 'a:1'],
  );

  onA = [];
  await clock.advance(CLUSTER_STREAMS_TIMING.intervalMs);
  assert.deepEqual(
    (await b.list()).map((s) => s.id),
    ['4'],
    'closed on a: gone from b',
  );
  await a.stop();
  await b.stop();
  assert.equal(store.rows.size, 0, 'a clean stop leaves no row');
  assert.equal(clock.timers, 0);
});

test("a dead node's streams disappear once stale; a failing store falls back to this node's streams", async () => {
  const clock = new ManualClock(0);
  const store = new FakeStore(clock);
  await store.put('dead', [stream('3', '/gone')]);
  const logger = memoryLogger();
  const a = new ClusterStreams({ nodeId: 'a', store, local: () => [stream('1', '/a')], clock, logger });
  assert.deepEqual(
    (await a.list()).map((s) => s.id),
    ['1', 'dead:3'],
  );
  await clock.advance(CLUSTER_STREAMS_TIMING.staleMs);
  assert.deepEqual(
    (await a.list()).map((s) => s.id),
    ['1'],
  );

  store.failing = true;
  await a.share();
  assert.deepEqual(
    (await a.list()).map((s) => s.id),
    ['1'],
  );
  assert.ok(logger.lines.some((l) => l.includes('could not share the open streams')));
  store.failing = false;
  await a.share();
  assert.ok(store.rows.has('a'), 'written again once the store is back');
});
