import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { DownloadTotals, type ProviderCounters } from '../../../appliance/sabnzbd/download-totals.js';
import { LmdbDownloadTotalsStore } from '../../../appliance/sabnzbd/download-totals.store.js';
import { NzoIds } from '../../../appliance/sabnzbd/nzo-ids.js';
import { LmdbNzoIdStore } from '../../../appliance/sabnzbd/nzo-ids.store.js';
import { SABNZBD_PG_MIGRATIONS } from '../../../appliance/sabnzbd/sabnzbd-pg.migrations.js';
import { copySabnzbdToPg } from '../../../appliance/sabnzbd/sabnzbd.copy.js';
import {
  openPgSabnzbdStores,
  PgDownloadTotalsStore,
  PgNzoIdStore,
} from '../../../appliance/sabnzbd/sabnzbd-pg.store.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { waitUntil } from '../../support/wait.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

async function twoNodes(): Promise<{ a: PgDb; b: PgDb; close(): Promise<void> }> {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([openPgDb(url), openPgDb(url)]);
  await Promise.all([
    migratePg(a, { sabnzbd: SABNZBD_PG_MIGRATIONS }),
    migratePg(b, { sabnzbd: SABNZBD_PG_MIGRATIONS }),
  ]);
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
}

const until = (what: () => boolean, label: string) => waitUntil(label, what, { everyMs: 25 });

test('two nodes starting together agree on one salt, so both form the same nzo_ids', async () => {
  const { a, b, close } = await twoNodes();
  try {
    const [ia, ib] = await Promise.all([NzoIds.open(new PgNzoIdStore(a)), NzoIds.open(new PgNzoIdStore(b))]);
    assert.equal(ia.of(7), ib.of(7));
    assert.equal(ib.parse(ia.of(7)), 7);
    assert.equal(await new PgNzoIdStore(b).saltOrCreate(() => 'other'), ia.of(1).split('_')[2], 'kept, not remade');
    await a.query(`UPDATE sabnzbd_meta SET value = 'Not A Salt!'`);
    assert.equal(await new PgNzoIdStore(a).saltOrCreate(() => 'fresh'), 'fresh', 'a malformed salt is replaced');
  } finally {
    await close();
  }
});

test("two nodes' download totals add up, and each node's copy shows the other's adds", async () => {
  const { a, b, close } = await twoNodes();
  const sa = await openPgSabnzbdStores(a, memoryLogger());
  const sb = await openPgSabnzbdStores(b, memoryLogger());
  try {
    const day = { day: '2026-11-25', providerId: 'p1' };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? sa : sb).downloadTotals.add(day, { host: 'news.example', bytes: 100, tried: 2, failed: 1 }),
      ),
    );
    await Promise.all([sa.downloadTotals.flushed(), sb.downloadTotals.flushed()]);
    const want = { host: 'news.example', bytes: 2000, tried: 40, failed: 20, ...day };
    for (const s of [sa, sb]) await until(() => [...s.downloadTotals.all()][0]?.bytes === 2000, 'both nodes see 2000');
    assert.deepEqual([...sa.downloadTotals.all()], [want]);
    assert.deepEqual([...sb.downloadTotals.all()], [want]);
    const stored = await a.query('SELECT bytes::int, tried::int, failed::int FROM sabnzbd_download_totals');
    assert.deepEqual(stored.rows, [{ bytes: 2000, tried: 40, failed: 20 }]);
  } finally {
    await sa.close();
    await sb.close();
    await close();
  }
});

test('the totals service on two nodes: each moves its own pool’s counts, server_stats shows both', async () => {
  const { a, b, close } = await twoNodes();
  const clock = new ManualClock(new Date(2026, 0, 30, 12).getTime());
  const nodes = await Promise.all(
    [a, b].map(async (db) => {
      const store = await PgDownloadTotalsStore.open(db, memoryLogger());
      const counters = new Map<string, ProviderCounters>();
      const totals = new DownloadTotals({
        store,
        clock,
        counters: () => [...counters.values()],
        logger: memoryLogger(),
      });
      return { store, counters, totals };
    }),
  );
  try {
    nodes[0]!.counters.set('p', { id: 'p', host: 'p.example', bytes: 700, tried: 7, failed: 0 });
    nodes[1]!.counters.set('p', { id: 'p', host: 'p.example', bytes: 300, tried: 3, failed: 1 });
    for (const n of nodes) n.totals.sample();
    for (const n of nodes) await n.store.flushed();
    for (const n of nodes) await until(() => n.totals.sums().total === 1000, 'each node sums both');
    assert.deepEqual(nodes[0]!.totals.sums(), { total: 1000, month: 1000, week: 1000, day: 1000 });
    assert.equal(nodes[1]!.totals.byProvider().get('p')?.articles_tried['2026-01-30'], 10);
  } finally {
    for (const n of nodes) n.store.close();
    await close();
  }
});

test('a node that missed a notification catches up on its periodic re-read', async () => {
  const { a, b, close } = await twoNodes();
  const sa = await PgDownloadTotalsStore.open(a, memoryLogger(), 200);
  try {
    // written behind the store's back: no notification, only the re-read can find it
    await b.query(`INSERT INTO sabnzbd_download_totals VALUES ('2026-11-25', 'p9', 'h', 5, 1, 0)`);
    await until(() => [...sa.all()].some((r) => r.providerId === 'p9' && r.bytes === 5), 'found by the re-read');
  } finally {
    sa.close();
    await close();
  }
});

test('a write the database refuses keeps its counts: still shown, stored with the next try', async () => {
  const { a, close } = await twoNodes();
  const store = await PgDownloadTotalsStore.open(a, memoryLogger());
  const key = { day: '2026-11-25', providerId: 'p' };
  const delta = { host: 'h', bytes: 10, tried: 1, failed: 0 };
  try {
    await a.query('ALTER TABLE sabnzbd_download_totals RENAME TO away');
    await assert.rejects(store.add(key, delta), /does not exist/);
    await assert.rejects(store.add(key, delta), /does not exist/);
    assert.equal([...store.all()][0]?.bytes, 20, 'counted while unstored');
    await a.query('ALTER TABLE away RENAME TO sabnzbd_download_totals');
    await store.flushed();
    const { rows } = await a.query('SELECT bytes::int FROM sabnzbd_download_totals');
    assert.deepEqual(rows, [{ bytes: 20 }], 'stored once, not lost, not doubled');
    assert.equal([...store.all()][0]?.bytes, 20);
  } finally {
    store.close();
    await close();
  }
});

test('an LMDB install’s salt and totals copy into PostgreSQL and read back equal', async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-sab-copy-'));
  const lmdb = openStore({ rootPath: root });
  const { a, close } = await twoNodes();
  try {
    const ids = await NzoIds.open(new LmdbNzoIdStore(lmdb));
    const totals = new LmdbDownloadTotalsStore(lmdb);
    await totals.add({ day: '2026-11-24', providerId: 'p1' }, { host: 'one', bytes: 1, tried: 2, failed: 3 });
    await totals.add({ day: '2026-11-25', providerId: 'p2' }, { host: 'two', bytes: 2 ** 40, tried: 5, failed: 0 });
    await totals.flushed();
    const report = await copySabnzbdToPg(lmdb, a, () => undefined);
    assert.deepEqual(report, [{ scope: 'sabnzbd', records: 3 }]);
    assert.equal((await NzoIds.open(new PgNzoIdStore(a))).of(42), ids.of(42), 'the arrs’ download ids still match');
    const pg = await PgDownloadTotalsStore.open(a, memoryLogger());
    pg.close();
    const byKey = (r: { day: string }) => r.day;
    assert.deepEqual(
      [...pg.all()].sort((x, y) => (byKey(x) < byKey(y) ? -1 : 1)),
      [...totals.all()],
    );
    await assert.rejects(
      copySabnzbdToPg(lmdb, a, () => undefined),
      /duplicate key/,
      'a second copy is refused',
    );
  } finally {
    await close();
    await lmdb.close();
    rmSync(root, { recursive: true, force: true });
  }
});
