/**
 * The providers' round-trip history through its storage port, run on every backend: LMDB
 * (appliance/diagnostics/latency-history.test.ts) and PostgreSQL (tests/integration/postgres/latency-pg.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { HOUR_MS, LatencyHistory, hourOf } from '../../../appliance/diagnostics/latency-history.js';
import { MAX_SAMPLES_PER_BUCKET, type LatencyStore } from '../../../appliance/diagnostics/latency.port.js';

export interface OpenedLatencyStore {
  store: LatencyStore;
  /** The same store opened again (a restart), then closed by `close`. */
  reopen(): Promise<LatencyStore>;
  close(): Promise<void> | void;
}

const DAY = 24 * HOUR_MS;

export function latencyStoreTests(open: () => Promise<OpenedLatencyStore>): void {
  test('samples go into hourly buckets, a full bucket takes no more, old hours are dropped', async () => {
    const { store, close } = await open();
    try {
      const h = hourOf(Date.parse('2026-11-28T10:20:00Z'));
      await store.add('b', h, 30);
      await store.add('a', h, 10);
      await store.add('a', h, 12.5);
      await store.add('a', h + HOUR_MS, 11);
      assert.deepEqual(await store.since(0), [
        { provider: 'a', hour: h, samples: [10, 12.5] },
        { provider: 'a', hour: h + HOUR_MS, samples: [11] },
        { provider: 'b', hour: h, samples: [30] },
      ]);
      assert.deepEqual(
        (await store.since(h + HOUR_MS)).map((b) => [b.provider, b.hour]),
        [['a', h + HOUR_MS]],
      );
      for (let i = 0; i < MAX_SAMPLES_PER_BUCKET + 5; i++) await store.add('c', h, i);
      const [full] = (await store.since(0)).filter((b) => b.provider === 'c');
      assert.equal(full?.samples.length, MAX_SAMPLES_PER_BUCKET, 'a bucket is bounded');
      assert.equal(await store.dropBefore(h + HOUR_MS), 3);
      assert.deepEqual(await store.since(0), [{ provider: 'a', hour: h + HOUR_MS, samples: [11] }]);
    } finally {
      await close();
    }
  });

  test('the history outlives a restart: fast before, slow after, a warning; past 30 days it is forgotten', async () => {
    const opened = await open();
    try {
      const clock = new ManualClock(Date.parse('2026-11-01T00:00:00Z'));
      let rtt = 20;
      const before = new LatencyHistory(() => [{ id: 'news', rttMs: rtt }], clock, opened.store);
      const stop = before.start();
      for (let i = 0; i < 8; i++) await clock.advance(5 * 60_000);
      // The stop waits for the samples still writing (each is a store write of its own): none is left in flight
      // over the store's close below.
      await stop();
      assert.deepEqual(
        (await opened.store.since(0)).map((b) => b.samples),
        [[20, 20, 20, 20, 20, 20, 20, 20]],
      );

      const store = await opened.reopen();
      rtt = 400;
      const after = new LatencyHistory(() => [{ id: 'news', rttMs: rtt }], clock, store);
      await clock.advance(2 * DAY);
      const [slow] = await after.findings();
      assert.equal(slow?.check, 'provider_latency');
      assert.match(slow.message, /answers in 400 ms now; over 40 minutes of samples .* answered in 20 ms \(median\)/);

      // 31 days on, a sample prunes the buckets past 30 days: no past left to compare with.
      await clock.advance(29 * DAY);
      await after.sample();
      assert.deepEqual(await after.findings(), []);
      assert.deepEqual(
        (await store.since(0)).map((b) => b.samples),
        [[400]],
      );
    } finally {
      await opened.close();
    }
  });
}
