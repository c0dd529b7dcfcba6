import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventBus, type SpoolEvents } from '../../events/index.js';
import type { LiveEventMessage, LiveTopic } from '../../events/live.wire.js';
import { memoryLogger } from '../../logging/logger.js';
import type { PgDb } from '../../store/pg/index.js';
import { LIVE_CHANNEL, MAX_NOTICE_BYTES, relayLiveEvents } from './live-relay.js';

// The relay between nodes, on a fake database: notify delivers to every node's listeners, like PostgreSQL does
// once the sending statement commits. The real thing: tests/integration/postgres/live-relay-pg.test.ts.

type RelayDb = Pick<PgDb, 'query' | 'listen'>;

/** One in-memory "database" several nodes share; `down` makes every query fail. */
function fakeDatabase() {
  const listeners = new Set<{ channel: string; handler: (payload: string) => void }>();
  const notices: string[] = [];
  const state = { down: false };
  const db = (): RelayDb => ({
    async query(text: string, params?: unknown[]) {
      await Promise.resolve();
      if (state.down) throw new Error('connection refused');
      assert.match(text, /pg_notify\(\$1, notice\) FROM unnest\(\$2::text\[\]\)/);
      const [channel, batch] = params as [string, string[]];
      assert.equal(channel, LIVE_CHANNEL);
      for (const payload of batch) {
        assert.ok(Buffer.byteLength(payload) < 8000, 'PostgreSQL refuses payloads of 8000 bytes');
        notices.push(payload);
        for (const l of listeners) if (l.channel === channel) l.handler(payload);
      }
      return { rows: [], rowCount: batch.length } as never;
    },
    listen(channel, handler) {
      const entry = { channel, handler };
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
  });
  return { db, notices, state, listeners };
}

/** A node: its bus, what its live endpoint was asked to publish, its relay. */
function node(db: RelayDb, id: string) {
  const bus = new EventBus<SpoolEvents>();
  const published: LiveEventMessage[] = [];
  const live = { publish: (_topic: LiveTopic, message: () => string) => void published.push(JSON.parse(message())) };
  const logger = memoryLogger();
  const stop = relayLiveEvents(bus, live, db, id, logger);
  return { bus, published, stop, logger };
}

const settle = () => new Promise((r) => setImmediate(r));
const ITEM: SpoolEvents['queue.item.added'] = { id: 7, name: 'x', category: null, status: 'pending', paused: false };

test('an event on one node reaches the other nodes’ live endpoints once, and never its own', async () => {
  const pg = fakeDatabase();
  const a = node(pg.db(), 'a');
  const b = node(pg.db(), 'b');
  const c = node(pg.db(), 'c');
  a.bus.emit('queue.item.added', ITEM);
  await settle();
  assert.deepEqual(b.published, [{ type: 'event', topic: 'queue.item.added', data: ITEM }]);
  assert.deepEqual(c.published, b.published);
  assert.deepEqual(a.published, [], 'the node itself forwards its events through app/live.ts, not the relay');
  assert.equal(pg.notices.length, 1);
  assert.deepEqual(Object.keys(JSON.parse(pg.notices[0]!)), ['node', 'seq', 'topic', 'payload']);
  for (const n of [a, b, c]) n.stop();
});

test('a relayed event is not emitted on the receiving bus: its subscribers act on their own node’s events only', async () => {
  const pg = fakeDatabase();
  const a = node(pg.db(), 'a');
  const b = node(pg.db(), 'b');
  const heard: unknown[] = [];
  b.bus.on('queue.item.added', (e) => heard.push(e));
  a.bus.emit('queue.item.added', ITEM);
  await settle();
  assert.equal(b.published.length, 1);
  assert.deepEqual(heard, []);
  assert.equal(pg.notices.length, 1, 'B did not send it on again');
  a.stop();
  b.stop();
});

test('events go in the order they happened; equal events are each sent; node-local topics stay home', async () => {
  const pg = fakeDatabase();
  const a = node(pg.db(), 'a');
  const b = node(pg.db(), 'b');
  const changed = { ...ITEM, status: 'processing' as const, previous_status: 'pending' as const };
  a.bus.emit('queue.item.added', ITEM);
  a.bus.emit('queue.item.changed', changed);
  a.bus.emit('queue.item.changed', changed);
  a.bus.emit('pool.metrics.tick', {} as SpoolEvents['pool.metrics.tick']);
  a.bus.emit('mount.state.changed', { mounted: true, mount_point: '/mnt/a', error: '' });
  a.bus.emit('provider.state.changed', {
    id: 'p',
    health: 'blocked',
    reason: 'unreachable',
    state: 'cooling_down',
    change: 'breaker_opened',
    last_error: 'x',
    allowed_connections: null,
    max_connections: 4,
    retry_at: null,
  });
  a.bus.emit('file.removed', { paths: ['/a'] });
  await settle();
  await settle();
  assert.deepEqual(
    b.published.map((m) => m.topic),
    ['queue.item.added', 'queue.item.changed', 'queue.item.changed', 'file.removed'],
  );
  a.stop();
  b.stop();
});

test('a path list too large for one notice arrives whole, split over several events; another large event is dropped', async () => {
  const pg = fakeDatabase();
  const a = node(pg.db(), 'a');
  const b = node(pg.db(), 'b');
  const paths = Array.from(
    { length: 400 },
    (_, i) => `/content/Show/Season 01/Show.S01E${i}.Some.Long.Release.Name.mkv`,
  );
  a.bus.emit('file.added', { paths, queue_item_id: 3 });
  await settle();
  const parts = b.published.filter((m) => m.topic === 'file.added');
  assert.ok(parts.length > 1);
  assert.deepEqual(
    parts.flatMap((m) => (m.data as SpoolEvents['file.added']).paths),
    paths,
  );
  for (const m of parts) assert.equal((m.data as SpoolEvents['file.added']).queue_item_id, 3);
  for (const n of pg.notices) assert.ok(Buffer.byteLength(n) <= MAX_NOTICE_BYTES);

  const huge = 'x'.repeat(MAX_NOTICE_BYTES);
  a.bus.emit('file.moved', { from: `/${huge}`, to: '/b' });
  a.bus.emit('file.removed', { paths: [`/${huge}`] });
  await settle();
  assert.equal(b.published.length, parts.length, 'neither was sent');
  assert.equal(a.logger.lines.filter((l) => l.includes('too large to relay')).length, 2);
  a.stop();
  b.stop();
});

test('unreadable notices are ignored; a database that is down loses events, logs once, and the relay goes on', async () => {
  const pg = fakeDatabase();
  const a = node(pg.db(), 'a');
  const b = node(pg.db(), 'b');
  for (const l of pg.listeners) {
    for (const junk of ['not json', 'null', '{"node":"x","seq":1,"topic":"auth.secret","payload":{}}', '{"node":"x"}'])
      l.handler(junk);
  }
  assert.equal(b.published.length, 0);
  pg.state.down = true;
  a.bus.emit('queue.item.added', ITEM);
  await settle();
  a.bus.emit('queue.item.added', ITEM);
  await settle();
  assert.equal(a.logger.lines.filter((l) => l.includes('cannot reach the other nodes')).length, 1);
  pg.state.down = false;
  a.bus.emit('queue.item.removed', ITEM);
  await settle();
  assert.deepEqual(
    b.published.map((m) => m.topic),
    ['queue.item.removed'],
  );
  a.stop();
  a.bus.emit('queue.item.added', ITEM);
  await settle();
  assert.equal(b.published.length, 1, 'a stopped relay sends nothing');
  assert.equal(a.bus.hasListeners('queue.item.added'), false);
  b.stop();
});
