/**
 * The repair ledger as repair's own storage domain (appliance/repair/repair-ledger.storage.ts) on PostgreSQL: a
 * database made when the ledger was kept in health's tables keeps every entry across the change (the ledger's first
 * migration step moves them), a new database has the ledger's tables only under its names, and `spool migrate`
 * (app/migrate-to-pg.ts, driven by STORAGE_DOMAINS) copies an LMDB install's ledger, moved or not yet.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { migrateToPg } from '../../../appliance/app/migrate-to-pg.js';
import { STORAGE_DOMAINS } from '../../../appliance/app/storage-domains.js';
import { ConfigService } from '../../../appliance/config/index.js';
import { HEALTH_PG_MIGRATIONS } from '../../../appliance/health/health-pg.migrations.js';
import { openPgHealthStore } from '../../../appliance/health/health-pg.store.js';
import { openHealthStore } from '../../../appliance/health/health.store.js';
import { createLogger } from '../../../appliance/logging/logger.js';
import { PgRepairLedger } from '../../../appliance/repair/repair-ledger-pg.store.js';
import type { BrakeState, BrokenRelease, RepairHistoryEntry } from '../../../appliance/repair/repair-ledger.port.js';
import { openRepairLedger } from '../../../appliance/repair/repair-ledger.store.js';
import { openStore, pgSchemasOf, type Key, type Store } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

let server: PostgresServer;
const dirs: string[] = [];
before(async () => (server = await startPostgres()));
after(async () => {
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const BRAKE: BrakeState = { engaged: true, reason: '12 of 20 files turned bad', changedAt: 7, releasedBy: null };
const entry = (id: number): RepairHistoryEntry => ({
  id,
  at: id * 10,
  path: `/complete/movies/f${id}.mkv`,
  method: id % 2 ? 'par2' : 'arr',
  instance: id % 2 ? null : 'radarr',
  result: 'failed',
  reason: 'no recovery blocks',
  manual: id === 2,
});
const newEntry = (id: number): Omit<RepairHistoryEntry, 'id'> => {
  const { id: _, ...rest } = entry(id);
  return rest;
};
const BROKEN: BrokenRelease = { fingerprint: 'fp1', path: '/complete/movies/gone.mkv', at: 5, reason: 'takedown' };

async function regclass(db: PgDb, name: string): Promise<boolean> {
  const r = await db.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
  return r.rows[0]!.found;
}

test('a database written when the ledger was in health’s tables keeps its ledger across the change', async () => {
  const db = await openPgDb(await server.createDatabase());
  try {
    // The old layout, written as the ledger's store wrote it then: health's step 1 made the tables.
    await migratePg(db, { health: HEALTH_PG_MIGRATIONS });
    await db.query("INSERT INTO health_meta (key, value) VALUES ('brake', $1::jsonb), ('in_step_at', '17')", [
      JSON.stringify(BRAKE),
    ]);
    for (const id of [1, 2, 3]) {
      const next = await db.query<{ id: number }>("SELECT nextval('health_repair_history_ids')::float8 AS id");
      assert.equal(next.rows[0]!.id, id);
      await db.query('INSERT INTO health_repair_history (id, entry) VALUES ($1, $2::jsonb)', [
        id,
        JSON.stringify(entry(id)),
      ]);
    }
    await db.query('INSERT INTO health_broken_releases (fingerprint, release) VALUES ($1, $2::jsonb)', [
      BROKEN.fingerprint,
      JSON.stringify(BROKEN),
    ]);

    // A start of this Spool: every domain's migrations, in the one list's order.
    await migratePg(db, pgSchemasOf(STORAGE_DOMAINS));
    const ledger = new PgRepairLedger(db);
    assert.deepEqual(await ledger.brake(), BRAKE);
    assert.deepEqual(await ledger.history(10, 0), { items: [3, 2, 1].map(entry), total: 3 });
    assert.deepEqual(await ledger.broken('fp1'), BROKEN);
    assert.equal((await ledger.addHistory(newEntry(4), 1000)).id, 4, 'history ids go on');
    for (const old of ['health_repair_history', 'health_repair_history_ids', 'health_broken_releases'])
      assert.equal(await regclass(db, old), false, `${old} is gone`);
    const left = await db.query<{ key: string }>('SELECT key FROM health_meta ORDER BY key');
    assert.deepEqual(
      left.rows.map((r) => r.key),
      ['in_step_at'],
      'the brake left health_meta; health’s marker stays',
    );
    const health = await openPgHealthStore(db);
    assert.equal(await health.inStepAt(), 17);
    health.close();
    // A second start runs no step again.
    await migratePg(db, pgSchemasOf(STORAGE_DOMAINS));
    assert.equal((await ledger.history(10, 0)).total, 4);
  } finally {
    await db.close();
  }
});

test('a new database has the ledger under its own names only', async () => {
  const db = await openPgDb(await server.createDatabase());
  try {
    await migratePg(db, pgSchemasOf(STORAGE_DOMAINS));
    for (const name of ['repair_history', 'repair_history_ids', 'repair_broken_releases', 'repair_ledger_meta'])
      assert.equal(await regclass(db, name), true, name);
    for (const old of ['health_repair_history', 'health_broken_releases'])
      assert.equal(await regclass(db, old), false, old);
    const ledger = new PgRepairLedger(db);
    assert.equal((await ledger.brake()).engaged, false);
    assert.equal((await ledger.addHistory(newEntry(1), 10)).id, 1);
  } finally {
    await db.close();
  }
});

/** An LMDB install (config and store) with health records and a ledger; `moved`: started once with this Spool. */
async function lmdbInstall(moved: boolean): Promise<string> {
  const dataDir = mkdtempSync(`${tmpdir()}/spool-ledger-migrate-`);
  dirs.push(dataDir);
  const logger = createLogger('test', 'error');
  const config = await ConfigService.open({ dataDir, env: {}, logger });
  const store = openStore({ rootPath: resolve(dataDir, config.get().metadata.root_path) });
  try {
    openHealthStore(store);
    if (moved) await writeThroughPort(store);
    else writeOldLayout(store);
  } finally {
    await store.close();
  }
  return dataDir;
}

function writeOldLayout(store: Store): void {
  const old = store.openDb<unknown, Key>('health-ledger');
  old.putSync(['brake'], BRAKE);
  for (const id of [1, 2, 3]) old.putSync(['h', id], entry(id));
  old.putSync(['hn'], 4);
  old.putSync(['b', BROKEN.fingerprint], BROKEN);
}

async function writeThroughPort(store: Store): Promise<void> {
  const ledger = openRepairLedger(store);
  await ledger.setBrake(BRAKE);
  for (const id of [1, 2, 3]) await ledger.addHistory(newEntry(id), 1000);
  await ledger.markBroken(BROKEN);
}

for (const moved of [false, true])
  test(`spool migrate copies the ledger of an LMDB install ${moved ? 'started with' : 'not yet started by'} this Spool`, async () => {
    const dataDir = await lmdbInstall(moved);
    const url = await server.createDatabase();
    const lines: string[] = [];
    const domains = STORAGE_DOMAINS.filter((d) => ['health', 'repair-ledger'].includes(d.scope));
    const out = await migrateToPg({ from: dataDir, to: url, domains, print: (l) => lines.push(l) });
    assert.deepEqual(out.failures, [], lines.join('\n'));
    assert.deepEqual(
      out.reports.map((r) => [r.scope, r.records]),
      [
        ['health', 0],
        ['repair-ledger', 5],
      ],
    );
    assert.ok(lines.includes('repair-ledger: 5 records, checked'), lines.join('\n'));
    const db = await openPgDb(url);
    try {
      const ledger = new PgRepairLedger(db);
      assert.deepEqual(await ledger.brake(), BRAKE);
      assert.deepEqual(await ledger.history(10, 0), { items: [3, 2, 1].map(entry), total: 3 });
      assert.deepEqual(await ledger.broken('fp1'), BROKEN);
      assert.equal((await ledger.addHistory(newEntry(4), 1000)).id, 4, 'history ids go on past the LMDB ledger’s');
    } finally {
      await db.close();
    }
  });
