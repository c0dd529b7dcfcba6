import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { openStore } from '../store/index.js';
import { LmdbFetchedBytesStore } from './fetched-bytes.store.js';
import { PoolTraffic } from './pool-traffic.js';

const dir = mkdtempSync(join(tmpdir(), 'spool-traffic-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const hosts: Record<string, string> = { a: 'news.a.example', b: 'news.b.example' };

test('bytes per fetch class per UTC day, kept in LMDB across a restart; providers per stream, most bytes first', async () => {
  const clock = new ManualClock(Date.parse('2026-11-25T23:59:00Z'));
  let store = openStore({ rootPath: dir });
  let traffic = new PoolTraffic({ store: new LmdbFetchedBytesStore(store), clock, hostOf: (id) => hosts[id] });
  traffic.command({ providerId: 'a', lane: 'play', stream: 1, bytes: 700 });
  traffic.command({ providerId: 'b', lane: 'play-ahead', stream: 1, bytes: 1500 });
  traffic.command({ providerId: 'a', lane: 'scan', stream: 2, bytes: 300 });
  traffic.command({ providerId: 'a', lane: 'health', bytes: 100 });
  traffic.command({ providerId: 'c', lane: 'import', bytes: 50 });
  traffic.command({ providerId: 'a', lane: 'health', bytes: 0 }); // a STAT brings nothing
  assert.deepEqual(traffic.byDay(), [
    { day: '2026-11-25', bytes: { player: 700, read_ahead: 1500, scanner: 300, health: 100, import: 50 } },
  ]);
  assert.deepEqual(traffic.providersOf(1), ['news.b.example', 'news.a.example']);
  traffic.forget(1);
  assert.deepEqual(traffic.providersOf(1), []);
  await clock.advance(120_000); // the next UTC day
  traffic.command({ providerId: 'c', lane: 'import', bytes: 10 });
  assert.deepEqual(traffic.providersOf(3), []);
  await traffic.flush();
  await store.close();

  store = openStore({ rootPath: dir });
  traffic = new PoolTraffic({ store: new LmdbFetchedBytesStore(store), clock, hostOf: (id) => hosts[id] });
  assert.deepEqual(traffic.byDay(), [
    { day: '2026-11-26', bytes: { player: 0, read_ahead: 0, scanner: 0, health: 0, import: 10 } },
    { day: '2026-11-25', bytes: { player: 700, read_ahead: 1500, scanner: 300, health: 100, import: 50 } },
  ]);
  await store.close();
});

test('only the kept days stay, in memory and on disk', async () => {
  const sub = mkdtempSync(join(dir, 'keep-'));
  const clock = new ManualClock(Date.parse('2026-11-01T12:00:00Z'));
  let store = openStore({ rootPath: sub });
  let traffic = new PoolTraffic({
    store: new LmdbFetchedBytesStore(store),
    clock,
    hostOf: () => undefined,
    daysKept: 2,
  });
  for (let i = 0; i < 3; i++) {
    traffic.command({ providerId: 'a', lane: 'play', bytes: 1 + i });
    await clock.advance(86_400_000);
  }
  assert.deepEqual(
    traffic.byDay().map((d) => d.day),
    ['2026-11-04', '2026-11-03'],
  );
  await traffic.flush();
  await store.close();
  store = openStore({ rootPath: sub });
  traffic = new PoolTraffic({ store: new LmdbFetchedBytesStore(store), clock, hostOf: () => undefined, daysKept: 2 });
  assert.deepEqual(
    [...new LmdbFetchedBytesStore(store).all()].map((d) => d.day),
    ['2026-11-03'],
  );
  await store.close();
});
