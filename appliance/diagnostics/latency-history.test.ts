import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { openStore, type Store } from '../store/index.js';
import { latencyStoreTests } from '../../tests/support/diagnostics/latency-store-tests.js';
import { LatencyHistory, SAMPLE_EVERY_MS } from './latency-history.js';
import type { LatencyBucket, LatencyStore } from './latency.port.js';
import { LmdbLatencyStore } from './latency.store.js';

// The round-trip history on real LMDB: a restart is the environment closed and opened again on the same folder.
latencyStoreTests(async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-latency-'));
  let store: Store = openStore({ rootPath: root });
  return {
    store: new LmdbLatencyStore(store),
    async reopen() {
      await store.close();
      store = openStore({ rootPath: root });
      return new LmdbLatencyStore(store);
    },
    async close() {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
});

test('the stop waits for a sample still writing: the store closes after it (app/lifetime.ts)', async () => {
  const order: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const store: LatencyStore = {
    async add() {
      await held;
      order.push('sample written');
    },
    since: async (): Promise<LatencyBucket[]> => [],
    dropBefore: async () => 0,
    put: async () => undefined,
  };
  const clock = new ManualClock(Date.parse('2026-11-01T00:00:00Z'));
  const stop = new LatencyHistory(() => [{ id: 'news', rttMs: 20 }], clock, store).start();
  await clock.advance(SAMPLE_EVERY_MS);
  const stopped = stop().then(() => order.push('stopped'));
  // A stop that did not wait would have settled here, before the write it left in flight.
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  release();
  await stopped;
  assert.deepEqual(order, ['sample written', 'stopped']);
  assert.equal(clock.timers, 0, 'and no sample is scheduled after it');
});
