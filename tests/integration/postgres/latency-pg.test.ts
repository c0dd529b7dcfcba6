/**
 * The providers' round-trip history (docs/diagnostics.md, `provider_latency`) on the real PostgreSQL harness: every
 * test the LMDB store passes (a restart is a second connection pool on the same database), two nodes' samples
 * landing in the same bucket, and `spool migrate`'s copy of an LMDB install's history read back whole.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { hourOf } from '../../../appliance/diagnostics/latency-history.js';
import { copyLatencyToPg } from '../../../appliance/diagnostics/latency.copy.js';
import { LATENCY_PG_MIGRATIONS } from '../../../appliance/diagnostics/latency-pg.migrations.js';
import { PgLatencyStore } from '../../../appliance/diagnostics/latency-pg.store.js';
import { LmdbLatencyStore } from '../../../appliance/diagnostics/latency.store.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { latencyStoreTests } from '../../support/diagnostics/latency-store-tests.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

async function migratedDb(url?: string): Promise<PgDb> {
  const db = await openPgDb(url ?? (await server.createDatabase()));
  await migratePg(db, { latency: LATENCY_PG_MIGRATIONS });
  return db;
}

latencyStoreTests(async () => {
  const url = await server.createDatabase();
  const dbs = [await migratedDb(url)];
  return {
    store: new PgLatencyStore(dbs[0]!),
    async reopen() {
      await dbs[0]!.close();
      dbs[0] = await migratedDb(url);
      return new PgLatencyStore(dbs[0]);
    },
    close: () => dbs[0]!.close(),
  };
});

test('two nodes sampling one provider in the same hour both land in its bucket', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await migratedDb(url), await migratedDb(url)];
  try {
    const hour = hourOf(Date.parse('2026-11-28T09:00:00Z'));
    await Promise.all([
      new PgLatencyStore(a).add('news', hour, 10),
      new PgLatencyStore(b).add('news', hour, 30),
      new PgLatencyStore(a).add('news', hour, 20),
    ]);
    const [bucket] = await new PgLatencyStore(b).since(0);
    assert.deepEqual(
      bucket?.samples.sort((x, y) => x - y),
      [10, 20, 30],
    );
  } finally {
    await a.close();
    await b.close();
  }
});

test('spool migrate copies an LMDB install’s round-trip history, read back whole', async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-latency-copy-'));
  const store = openStore({ rootPath: root });
  const db = await migratedDb();
  try {
    const lmdb = new LmdbLatencyStore(store);
    const hour = hourOf(Date.parse('2026-11-28T09:00:00Z'));
    for (const [provider, h, ms] of [
      ['Zeta', hour, 41.5],
      ['alpha', hour, 12],
      ['alpha', hour, 13],
      ['alpha', hour - 3_600_000, 11],
    ] as const)
      await lmdb.add(provider, h, ms);
    const report = await copyLatencyToPg(store, db, () => undefined);
    assert.deepEqual(report, [{ scope: 'latency', records: 3 }]);
    assert.deepEqual(await new PgLatencyStore(db).since(0), await lmdb.since(0));
  } finally {
    await db.close();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  }
});
