import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { EventBus, type SpoolEvents } from '../events/index.js';
import type { PoolMetrics } from '../nntp/pool.wire.js';
import { tickPoolMetrics } from './pool-events.js';

const metrics = (n: number): PoolMetrics => ({
  active_connections: n,
  total_bytes_downloaded: 0,
  command_success_rate_percent: 100,
  error_rate_percent: 0,
  acquire_wait_time_ms: 0,
  waiting_requests: 0,
  in_flight_commands: 0,
  providers: [],
});

test('pool metrics are read and announced on each tick only while someone listens; stop ends the ticks', async () => {
  const clock = new ManualClock();
  const events = new EventBus<SpoolEvents>();
  let reads = 0;
  const stop = tickPoolMetrics(events, { metrics: () => metrics(++reads) }, clock, 1000);
  await clock.advance(3000);
  assert.equal(reads, 0, 'nobody listened: the metrics were never built');
  const seen: number[] = [];
  const off = events.on('pool.metrics.tick', (m) => seen.push(m.active_connections));
  await clock.advance(2000);
  assert.deepEqual(seen, [1, 2]);
  off();
  await clock.advance(2000);
  assert.equal(reads, 2);
  events.on('pool.metrics.tick', (m) => seen.push(m.active_connections));
  stop();
  await clock.advance(5000);
  assert.deepEqual(seen, [1, 2]);
});
