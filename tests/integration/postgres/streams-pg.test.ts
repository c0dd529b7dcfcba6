import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { openPgFetchedBytes, PgFetchedBytesStore } from '../../../appliance/streams/fetched-bytes-pg.store.js';
import { LmdbFetchedBytesStore } from '../../../appliance/streams/fetched-bytes.store.js';
import { PoolTraffic } from '../../../appliance/streams/pool-traffic.js';
import { copyStreamsToPg } from '../../../appliance/streams/streams.copy.js';
import { STREAMS_PG_MIGRATIONS } from '../../../appliance/streams/streams-pg.migrations.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { waitUntil } from '../../support/wait.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

async function twoNodes(): Promise<{ a: PgDb; b: PgDb; close(): Promise<void> }> {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([openPgDb(url), openPgDb(url)]);
  await Promise.all([
    migratePg(a, { streams: STREAMS_PG_MIGRATIONS }),
    migratePg(b, { streams: STREAMS_PG_MIGRATIONS }),
  ]);
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
}

/** Waits for `what` (`label`, for the reader): one that never comes fails with the test's timeout, not sooner. */
const until = (what: () => boolean, label: string) => waitUntil(label, what, { everyMs: 25 });
const bytes = (player: number, read_ahead = 0, scanner = 0, health = 0, imp = 0) => ({
  player,
  read_ahead,
  scanner,
  health,
  import: imp,
});

test("the Streams view's days on two nodes: each adds its own pool's bytes, both show the sum", async () => {
  const { a, b, close } = await twoNodes();
  const clock = new ManualClock(Date.parse('2026-11-25T23:59:00Z'));
  const stores = [await openPgFetchedBytes(a, memoryLogger()), await openPgFetchedBytes(b, memoryLogger())];
  const [ta, tb] = stores.map((store) => new PoolTraffic({ store, clock, hostOf: () => undefined }));
  try {
    ta!.command({ providerId: 'p', lane: 'play', bytes: 700 });
    tb!.command({ providerId: 'p', lane: 'play', bytes: 300 });
    tb!.command({ providerId: 'p', lane: 'scan', bytes: 50 });
    assert.deepEqual(ta!.byDay(), [{ day: '2026-11-25', bytes: bytes(700) }], 'before a flush: its own');
    await Promise.all([ta!.flush(), tb!.flush()]);
    ta!.command({ providerId: 'p', lane: 'play', bytes: 1 }); // not flushed yet: shown on its node at once
    const want = [{ day: '2026-11-25', bytes: bytes(1001, 0, 50) }];
    await until(() => ta!.byDay()[0]?.bytes.scanner === 50, 'a hears b');
    assert.deepEqual(ta!.byDay(), want);
    await ta!.flush();
    await until(() => tb!.byDay()[0]?.bytes.player === 1001, 'b hears a');
    assert.deepEqual(tb!.byDay(), want);
    // flushing again adds nothing twice
    await Promise.all([ta!.flush(), tb!.flush()]);
    const { rows } = await a.query('SELECT player::int, scanner::int FROM stream_fetched_bytes');
    assert.deepEqual(rows, [{ player: 1001, scanner: 50 }]);
  } finally {
    for (const s of stores) s.close();
    await close();
  }
});

test('days no longer kept are dropped on every node', async () => {
  const { a, b, close } = await twoNodes();
  const clock = new ManualClock(Date.parse('2026-11-01T12:00:00Z'));
  const sa = await PgFetchedBytesStore.open(a, memoryLogger());
  const sb = await PgFetchedBytesStore.open(b, memoryLogger());
  try {
    const traffic = new PoolTraffic({ store: sa, clock, hostOf: () => undefined, daysKept: 2 });
    for (let i = 0; i < 3; i++) {
      traffic.command({ providerId: 'p', lane: 'play', bytes: 1 + i });
      await traffic.flush();
      await clock.advance(86_400_000);
    }
    await traffic.flush(); // on the 4th: the 3rd and the 4th are kept
    // b hears of each day as it comes: one day listed may be the first one, not yet the third alone
    const keptOnly = () => [...sb.all()].map((d) => `${d.day} ${d.bytes.player}`).join() === '2026-11-03 3';
    await until(keptOnly, 'b drops the old days too');
    assert.deepEqual([...sb.all()], [{ day: '2026-11-03', bytes: bytes(3) }]);
    assert.deepEqual(
      traffic.byDay().map((d) => d.day),
      ['2026-11-04', '2026-11-03'],
    );
  } finally {
    sa.close();
    sb.close();
    await close();
  }
});

test('an LMDB install’s bytes fetched copy into PostgreSQL and read back equal', async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-streams-copy-'));
  const lmdb = openStore({ rootPath: root });
  const { a, close } = await twoNodes();
  try {
    const from = new LmdbFetchedBytesStore(lmdb);
    await from.add({ day: '2026-11-24', bytes: bytes(1, 2, 3, 4, 5) });
    await from.add({ day: '2026-11-25', bytes: bytes(2 ** 40) });
    assert.deepEqual(await copyStreamsToPg(lmdb, a, () => undefined), [{ scope: 'streams', records: 2 }]);
    const to = await PgFetchedBytesStore.open(a, memoryLogger());
    to.close();
    assert.deepEqual([...to.all()], [...from.all()]);
    await assert.rejects(
      copyStreamsToPg(lmdb, a, () => undefined),
      /duplicate key/,
      'a second copy is refused',
    );
  } finally {
    await close();
    await lmdb.close();
    rmSync(root, { recursive: true, force: true });
  }
});
