import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { EventBus, type SpoolEvents } from '../../../appliance/events/index.js';
import { copyHealthToPg } from '../../../appliance/health/health.copy.js';
import { openPgHealthStore, type PgHealthStore } from '../../../appliance/health/health-pg.store.js';
import type { HealthListQuery } from '../../../appliance/health/health.port.js';
import { openHealthStore } from '../../../appliance/health/health.store.js';
import type { HealthRecord } from '../../../appliance/health/health.types.js';
import { HEALTH_SORT_KEYS, HEALTH_STATUSES, SORT_ORDERS } from '../../../appliance/health/health.wire.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { openStore, type Store } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { healthStorage } from '../../../appliance/health/health.storage.js';
import { newRecord } from '../../support/health/port-suite.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { mulberry32 } from '../../support/seeded-random.js';
import { waitUntil } from '../../support/wait.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** Two nodes on one new database: two pools, two listeners, two stores. */
async function twoNodes(): Promise<{ a: PgHealthStore; b: PgHealthStore; dbs: PgDb[] }> {
  const url = await server.createDatabase();
  const dbs = await Promise.all([openPgDb(url), openPgDb(url)]);
  closers.push(() => Promise.all(dbs.map((d) => d.close())).then(() => undefined));
  const [a, b] = [await openPgHealthStore(dbs[0]!), await openPgHealthStore(dbs[1]!)];
  closers.push(() => [a, b].forEach((s) => s.close()));
  return { a, b, dbs };
}

function lmdb(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'spool-health-pg-'));
  const store = openStore({ rootPath: dir });
  closers.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** Waits (bounded, real time: a notification crosses the server) until `cond` holds. */
async function until(cond: () => boolean, what: string): Promise<void> {
  await waitUntil(what, cond, { everyMs: 25 });
}

const missing = (id: string) => [{ messageId: id, index: 0, start: 0, end: 10, damaged: false }];

test("a verdict committed on one node shows in the other's verdicts; so do a move, a cleared one and a removal", async () => {
  const { a, b } = await twoNodes();
  const r = await a.upsert(
    '/m/Bad.mkv',
    () => newRecord({ verdict: 'corrupted', missing: missing('x1') }),
    (x) => x,
  );
  assert.equal(a.verdicts.corrupted('/m/Bad.mkv'), true, 'at once on the node that committed');
  await until(() => b.verdicts.corrupted('/m/Bad.mkv'), 'the other node hears it');
  assert.equal(b.verdicts.unavailable('/m/Bad.mkv', 'x1'), true);
  await a.rename(r.id, '/m/Moved.mkv');
  await until(() => b.verdicts.corrupted('/m/Moved.mkv'), 'the move reaches the other node');
  assert.equal(b.verdicts.corrupted('/m/Bad.mkv'), false);
  await b.update(r.id, (x) => ({ ...x, verdict: 'healthy', missing: [], readEvidence: ['e1'] }));
  await until(() => !a.verdicts.corrupted('/m/Moved.mkv'), 'and back');
  assert.equal(a.verdicts.unavailable('/m/Moved.mkv', 'e1'), true);
  await b.remove(r.id);
  await until(() => !a.verdicts.unavailable('/m/Moved.mkv', 'e1'), 'a removal takes the verdict on every node');
});

test('a commit whose paths do not fit a notification sends a reload, and the other node reads every verdict', async () => {
  const { a, b } = await twoNodes();
  const long = (i: number) => `/m/${'x'.repeat(200)}/${i}.mkv`;
  await a.commit(
    Array.from({ length: 60 }, (_, i) => ({
      op: 'upsert' as const,
      path: long(i),
      create: () => newRecord({ readEvidence: [`m${i}`] }),
      change: (x: HealthRecord) => x,
    })),
  );
  await until(() => b.verdicts.unavailable(long(59), 'm59'), 'the reload reached the other node');
  for (let i = 0; i < 60; i++) assert.equal(b.verdicts.unavailable(long(i), `m${i}`), true);
});

test('a node whose listening connection came back reads every verdict again (what it missed meanwhile)', async () => {
  const { a, b, dbs } = await twoNodes();
  // Cut every listening connection of the database, then commit at once: node b may miss the notification.
  await dbs[0]!.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
  );
  await a.upsert(
    '/m/Missed.mkv',
    () => newRecord({ verdict: 'corrupted' }),
    (x) => x,
  );
  await until(() => b.verdicts.corrupted('/m/Missed.mkv'), 'known after the listener came back');
});

test('the same path upserted from both nodes at once makes one record; the changes of both count', async () => {
  const { a, b } = await twoNodes();
  const paths = Array.from({ length: 20 }, (_, i) => `/m/race/${i}.mkv`);
  const bump = (x: HealthRecord) => ({ ...x, retryCount: x.retryCount + 1 });
  await Promise.all(paths.flatMap((p) => [a, b, a, b].map((s) => s.upsert(p, () => newRecord(), bump))));
  const all = await a.all();
  assert.equal(all.length, paths.length, 'one record per path');
  for (const r of all) assert.equal(r.retryCount, 3, `${r.path}: one created it, three changed it`);
  assert.deepEqual(new Set(all.map((r) => r.id)).size, paths.length);
  assert.equal(a.verdicts.noted + b.verdicts.noted, 0, 'no node keeps a list of the paths it wrote');
});

test('a unit of work that throws on one node changes nothing, on either node', async () => {
  const { a, b } = await twoNodes();
  const events = new EventBus<SpoolEvents>(memoryLogger());
  const told: string[] = [];
  events.on('health.record.changed', (e) => told.push(`${e.change} ${e.path}`));
  const db = await openPgDb(await server.createDatabase());
  closers.push(() => db.close());
  const c = await openPgHealthStore(db, events);
  closers.push(() => c.close());
  for (const s of [a, c]) {
    const r = await s.upsert(
      '/m/Keep.mkv',
      () => newRecord({ verdict: 'corrupted' }),
      (x) => x,
    );
    await assert.rejects(
      s.commit([
        { op: 'upsert', path: '/m/New.mkv', create: () => newRecord({ verdict: 'corrupted' }), change: (x) => x },
        { op: 'update', id: r.id, change: (x) => ({ ...x, verdict: 'healthy' }) },
        {
          op: 'update',
          id: r.id,
          change: () => {
            throw new Error('boom');
          },
        },
      ]),
      /boom/,
    );
    assert.deepEqual(
      (await s.all()).map((x) => [x.path, x.verdict]),
      [['/m/Keep.mkv', 'corrupted']],
    );
    assert.equal(s.verdicts.corrupted('/m/New.mkv'), false);
    assert.equal(s.verdicts.corrupted('/m/Keep.mkv'), true);
  }
  assert.deepEqual(told, ['created /m/Keep.mkv'], 'only what was committed is announced, on the node that did');
  await until(() => b.verdicts.corrupted('/m/Keep.mkv'), 'the committed verdict reached b');
  assert.equal(b.verdicts.corrupted('/m/New.mkv'), false);
});

/** Records with ties and gaps in every indexed field, the same on every run. */
function randomRecords(n: number) {
  const rnd = mulberry32(25);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const maybe = <T>(p: number, v: () => T) => (rnd() < p ? v() : null);
  const names = ['Alpha', 'beta', 'Gamma', 'delta', 'Éclair', 'ñandú', 'Zed', 'zed'];
  return Array.from({ length: n }, (_, i) => {
    const status = pick(HEALTH_STATUSES);
    const path = `/m/${pick(names)} ${Math.floor(rnd() * 50)}/${pick(names)}.${i}.mkv`;
    return newRecord({
      path,
      sourceNzbPath: maybe(0.5, () => `/nzb/${pick(names)}.nzb`),
      status,
      settledStatus: status,
      createdAt: Math.floor(rnd() * 20) * 1_000,
      fileCreatedAt: Math.floor(rnd() * 20) * 1_000,
      nextCheckAt: maybe(0.7, () => Math.floor(rnd() * 20) * 1_000),
      lastCheckedAt: maybe(0.5, () => Math.floor(rnd() * 20) * 1_000),
      ...(rnd() < 0.8 ? { tier: pick([0, 1, 2] as const) } : {}),
      manual: maybe(0.2, () => ({ priority: rnd() < 0.3, at: Math.floor(rnd() * 5) * 1_000 })),
      repairNextAt: maybe(0.2, () => Math.floor(rnd() * 20) * 1_000),
      totalSegments: rnd() < 0.5 ? Math.floor(rnd() * 1_000) : 0,
      verdict: maybe(0.3, () => pick(['healthy', 'partial', 'corrupted'] as const)),
    });
  });
}

test('every question of the port gets the same answer, in the same order, from the LMDB store on the same data', async () => {
  const records = randomRecords(400);
  const lm = openHealthStore(lmdb());
  const db = await openPgDb(await server.createDatabase());
  closers.push(() => db.close());
  const pg = await openPgHealthStore(db);
  closers.push(() => pg.close());
  for (const s of [lm, pg]) {
    await s.commit(records.map((r) => ({ op: 'upsert', path: r.path, create: () => r, change: (x) => x })));
    // Some removed and moved, so ids have gaps and paths move.
    await s.commit([
      { op: 'remove', id: 7 },
      { op: 'remove', id: 99 },
      { op: 'rename', id: 10, path: '/m/moved/x.mkv' },
      { op: 'rename', id: 11, path: records[12]!.path },
    ]);
  }
  const same = async (what: string, ask: (s: typeof lm) => Promise<unknown>) =>
    assert.deepEqual(await ask(pg), await ask(lm), what);
  await same('all', (s) => s.all());
  for (let now = -1_000; now <= 21_000; now += 2_500) {
    await same(`due ${now}`, (s) => s.due(now, 1_000));
    await same(`due ${now} limit 7`, (s) => s.due(now, 7));
    await same(`dueCount ${now}`, (s) => s.dueCount(now));
    await same(`repairsDue ${now}`, (s) => s.repairsDue(now));
    await same(`verifiedSince ${now}`, (s) => s.verifiedSince(now));
    await same(`filesCreatedBetween ${now}`, (s) => s.filesCreatedBetween(now, now + 5_000));
  }
  for (const limit of [0, 1, 5, 1_000]) await same(`manualQueue ${limit}`, (s) => s.manualQueue(limit));
  await same('manualCount', (s) => s.manualCount());
  await same('counts', (s) => s.counts());
  await same('articleTotals', (s) => s.articleTotals());
  await same('nextDueAt', (s) => s.nextDueAt());
  for (const st of HEALTH_STATUSES) await same(`withStatus ${st}`, (s) => s.withStatus(st));
  for (const dir of ['/m/Alpha 3', '/m/zed 1/', '/m', '/nothing']) await same(`under ${dir}`, (s) => s.under(dir));
  for (const sortBy of HEALTH_SORT_KEYS)
    for (const sortOrder of SORT_ORDERS)
      for (const status of [undefined, 'pending', 'corrupted'] as const)
        for (const search of [undefined, 'ZED', 'éclair', 'ÑANDÚ', '.nzb', 'nothing'])
          for (const [limit, offset] of [
            [0, 0],
            [10, 5],
            [25, 300],
          ] as const) {
            const q: HealthListQuery = { sortBy, sortOrder, status, search, limit, offset, since: 5_000 };
            await same(`list ${JSON.stringify(q)}`, (s) => s.list(q));
            await same(`list ${JSON.stringify(q)} all times`, (s) => s.list({ ...q, since: undefined }));
          }
  for (const r of records) assert.equal(pg.verdicts.corrupted(r.path), lm.verdicts.corrupted(r.path), r.path);
});

test('an LMDB install copies into PostgreSQL whole: records with their ids, the in-step marker', async () => {
  const store = lmdb();
  const lm = openHealthStore(store);
  const records = randomRecords(1_200);
  await lm.commit(records.map((r) => ({ op: 'upsert', path: r.path, create: () => r, change: (x) => x })));
  await lm.remove(1_200); // the next id is past the highest kept
  await lm.update(5, (r) => ({ ...r, readEvidence: ['ev'], tier: undefined }));
  await lm.setInStepAt(321);
  const db = await openPgDb(await server.createDatabase());
  closers.push(() => db.close());
  const said: string[] = [];
  const [report] = await copyHealthToPg(store, db, (m) => said.push(m));
  assert.equal(report?.scope, 'health');
  assert.equal(report?.records, 1_199);
  assert.ok(said.some((m) => /1199 of 1199 records/.test(m)));
  const pg = await openPgHealthStore(db);
  closers.push(() => pg.close());
  assert.deepEqual(JSON.parse(JSON.stringify(await pg.all())), JSON.parse(JSON.stringify(await lm.all())));
  assert.equal(await pg.inStepAt(), 321);
  assert.equal(pg.verdicts.unavailable(records[4]!.path, 'ev'), true);
  const next = await pg.upsert(
    '/new',
    () => newRecord(),
    (x) => x,
  );
  assert.equal(next.id, 1_201, 'ids go on past the LMDB store’s');
  // A copy into a database that already holds records refuses (nothing is overwritten).
  await assert.rejects(
    copyHealthToPg(store, db, () => undefined),
    /duplicate key/,
  );
  // An LMDB store behind this Spool's health schema is not read (it is moved once a start brought it up to date).
  await assert.rejects(
    copyHealthToPg(lmdb(), db, () => undefined),
    /start the install once with this Spool/,
  );
});

test("the health storage module opens the store on the bundle's database and announces the records it writes", async () => {
  const db = await openPgDb(await server.createDatabase());
  closers.push(() => db.close());
  await migratePg(db, { [healthStorage.scope]: healthStorage.pg.migrations });
  const events = new EventBus<SpoolEvents>(memoryLogger());
  const told: string[] = [];
  events.on('health.record.changed', (e) => told.push(`${e.change} ${e.path} ${e.status}`));
  const onClose: (() => void | Promise<void>)[] = [];
  const { health: store } = await healthStorage.pg.open({
    db,
    local: lmdb(),
    dataDir: '/nonexistent',
    events,
    logger: memoryLogger(),
    onClose: (c) => void onClose.push(c),
  });
  const r = await store.upsert(
    '/m/Slot.mkv',
    () => newRecord({ verdict: 'corrupted' }),
    (x) => x,
  );
  await store.update(r.id, (x) => ({ ...x, status: 'healthy' }));
  assert.deepEqual(told, ['created /m/Slot.mkv pending', 'updated /m/Slot.mkv healthy']);
  assert.equal(store.verdicts.corrupted('/m/Slot.mkv'), true);
  assert.equal(onClose.length, 1, 'the store stops listening when the bundle closes');
  for (const c of onClose) await c();
});
