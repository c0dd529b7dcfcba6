import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { EventBus, type SpoolEvents } from '../events/index.js';
import { openStore } from '../store/index.js';
import { LmdbFetchedBytesStore } from '../streams/fetched-bytes.store.js';
import { PoolTraffic } from '../streams/pool-traffic.js';
import { ReadHandles } from '../vfs/read-handle.js';
import { VfsReader } from '../vfs/reader.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { wireStreamEvents } from './stream-events.js';
import { wireStreamRegistry } from './streams.js';

// The Streams view as the app wires it: a handle's listing carries the pool's connections and providers for it,
// the ended row keeps its providers, and the bytes fetched per class are in the answer.
const t = tempVfs();
const dir = mkdtempSync(join(tmpdir(), 'spool-streams-app-'));
const store = openStore({ rootPath: dir });
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  t.close();
});
const bytes = randomBytes(30_000);
const { layout, articles } = memoryArticles(bytes, 7_000);
const PATH = '/complete/x/J/f.bin';
const sig = new AbortController().signal;

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

test('connections and providers per stream from the pool; the ended stream keeps its providers', async () => {
  const clock = { t: Date.parse('2026-11-25T10:00:00Z'), now: () => clock.t };
  const handles = new ReadHandles(new VfsReader(t.vfs, new MapSource(articles), testReaderSettings), clock);
  const bus = new EventBus<SpoolEvents>();
  const stopEvents = wireStreamEvents(handles, bus);
  const traffic = new PoolTraffic({
    store: new LmdbFetchedBytesStore(store),
    clock,
    hostOf: (id) => ({ p1: 'news.one.example' })[id],
  });
  const onWire = new Map<number, number>();
  const { registry, stop } = wireStreamRegistry(bus, handles, clock, {
    traffic,
    streamCommands: (id) => onWire.get(id) ?? 0,
  });
  const h = handles.open(PATH, 'webdav', { address: '192.0.2.7' });
  const it = h.stream(0, 14_000, sig)[Symbol.asyncIterator]();
  await it.next();
  // what the pool reported for this handle meanwhile
  traffic.command({ providerId: 'p1', lane: 'play', stream: h.id, bytes: 7_000 });
  traffic.command({ providerId: 'p2', lane: 'play-ahead', stream: h.id, bytes: 3_000 });
  traffic.command({ providerId: 'p1', lane: 'health', bytes: 500 });
  onWire.set(h.id, 2);
  const [open] = registry.list();
  assert.equal(open?.connections, 2);
  assert.deepEqual(open?.providers, ['news.one.example', 'p2']);
  assert.deepEqual(registry.fetchedByClass()[0]?.bytes, {
    player: 7_000,
    read_ahead: 3_000,
    scanner: 0,
    health: 500,
    import: 0,
  });
  while (!(await it.next()).done);
  h.close('done');
  const [ended] = registry.history();
  assert.deepEqual(ended?.providers, ['news.one.example', 'p2']);
  assert.equal(ended?.connections, null);
  assert.deepEqual(traffic.providersOf(h.id), [], 'forgotten once closed');
  // a stream nobody listed while it was open still ends with its providers
  const h2 = handles.open(PATH, 'fuse', { pid: 42 });
  traffic.command({ providerId: 'p2', lane: 'play', stream: h2.id, bytes: 7_000 });
  h2.close('done');
  assert.deepEqual(registry.history()[0]?.providers, ['p2']);
  stop();
  stopEvents();
});
