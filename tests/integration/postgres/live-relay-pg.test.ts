import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { forwardLiveEvents, type LivePublisher } from '../../../appliance/app/live.js';
import { LIVE_CHANNEL, relayLiveEvents } from '../../../appliance/app/cluster/live-relay.js';
import { EventBus, type SpoolEvents } from '../../../appliance/events/index.js';
import { LIVE_TOPICS, type LiveEventMessage, type LiveTopic } from '../../../appliance/events/live.wire.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { waitUntil } from '../../support/wait.js';

// Two nodes' relays on one real PostgreSQL (app/cluster/live-relay.ts): what a console connected to B sees of A.

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

/** A node: its bus, a live endpoint whose clients want every topic, the local forwarding and the relay. */
function node(db: PgDb, id: string) {
  const bus = new EventBus<SpoolEvents>();
  const published: LiveEventMessage[] = [];
  const live: LivePublisher = {
    publish: (_topic: LiveTopic, message: () => string) => void published.push(JSON.parse(message())),
    onDemand(listener) {
      for (const topic of LIVE_TOPICS) listener(topic, true);
      return () => undefined;
    },
  };
  const stops = [forwardLiveEvents(bus, live), relayLiveEvents(bus, live, db, id, memoryLogger())];
  return { bus, published, stop: () => stops.forEach((s) => s()) };
}

/** Resolves once `db`'s listening connection delivered a notice on the relay's channel matching `match`. */
function seen(db: PgDb, match: (payload: string) => boolean, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('notice not delivered')), ms);
    const off = db.listen(LIVE_CHANNEL, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  await waitUntil(what, check, { everyMs: 20 });
}

test('an event on node A reaches the live endpoint of node B once, and A’s only once', async () => {
  const url = await server.createDatabase();
  const [dbA, dbB] = await Promise.all([openPgDb(url), openPgDb(url)]);
  const a = node(dbA, 'node-a');
  const b = node(dbB, 'node-b');
  try {
    // Both listening connections are up once a probe sent through each has come back to it.
    for (const db of [dbA, dbB]) {
      const probe = `probe-${Math.random()}`;
      const heard = seen(db, (p) => p === probe);
      for (let i = 0; i < 50; i++) {
        await db.notify(LIVE_CHANNEL, probe);
        if (await Promise.race([heard.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))])) break;
      }
      await heard;
    }
    const item: SpoolEvents['queue.item.added'] = {
      id: 41,
      name: 'Film',
      category: 'movies',
      status: 'pending',
      paused: false,
    };
    const record: SpoolEvents['health.record.changed'] = {
      id: 9,
      path: '/m/Film.mkv',
      change: 'updated',
      status: 'corrupted',
    };
    // A's own listener hears its notices too; once it has heard the last one, A's relay has seen (and skipped) both.
    const backAtA = seen(dbA, (p) => p.includes('"health.record.changed"'));
    a.bus.emit('queue.item.added', item);
    a.bus.emit('health.record.changed', record);
    a.bus.emit('pool.metrics.tick', {} as SpoolEvents['pool.metrics.tick']);
    await until(() => b.published.length >= 2, 'the events at B');
    await backAtA;
    assert.deepEqual(b.published, [
      { type: 'event', topic: 'queue.item.added', data: item },
      { type: 'event', topic: 'health.record.changed', data: record },
    ]);
    assert.deepEqual(
      a.published.map((m) => m.topic),
      ['queue.item.added', 'health.record.changed', 'pool.metrics.tick'],
      'A’s consoles get each of A’s events once, from the local forwarding',
    );
    // And the other way: B's event at A, once.
    const backAtB = seen(dbB, (p) => p.includes('Old.mkv'));
    b.bus.emit('file.removed', { paths: ['/m/Old.mkv'] });
    await until(() => a.published.length === 4, 'B’s event at A');
    await backAtB;
    assert.deepEqual(a.published[3], { type: 'event', topic: 'file.removed', data: { paths: ['/m/Old.mkv'] } });
    assert.equal(b.published.length, 3);
  } finally {
    a.stop();
    b.stop();
    await Promise.all([dbA.close(), dbB.close()]);
  }
});
