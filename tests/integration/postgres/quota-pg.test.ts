import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { QUOTA_PG_MIGRATIONS } from '../../../appliance/providers/quota-pg.migrations.js';
import { PgQuotaStateStore } from '../../../appliance/providers/quota-pg.store.js';
import { copyQuotaToPg } from '../../../appliance/providers/quota.copy.js';
import { LmdbQuotaStateStore } from '../../../appliance/providers/quota.store.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

// The quota meter's marks on PostgreSQL (docs/nntp.md "Quotas and expiry"): of two nodes claiming one notice, one
// gets it; the lifetime baseline is kept; `spool migrate` copies the LMDB marks over and reads them back.
let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

async function migrated(url: string): Promise<PgDb> {
  const db = await openPgDb(url);
  await migratePg(db, { quota: QUOTA_PG_MIGRATIONS });
  return db;
}

test('two nodes claim one threshold: exactly one gets it; the baseline is shared', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await migrated(url), await migrated(url)];
  try {
    const [sa, sb] = [new PgQuotaStateStore(a), new PgQuotaStateStore(b)];
    const claims = await Promise.all([
      sa.claim('p', 'daily:2026-11-28:1000:80'),
      sb.claim('p', 'daily:2026-11-28:1000:80'),
    ]);
    assert.deepEqual(claims.filter(Boolean).length, 1);
    assert.equal(await sa.claim('p', 'daily:2026-11-28:1000:80'), false);
    await sa.setBaseline('p', { setting: 7000, counted: 5000 });
    assert.deepEqual(await sb.baseline('p'), { setting: 7000, counted: 5000 });
    assert.equal(await sb.baseline('q'), undefined);
  } finally {
    await a.close();
    await b.close();
  }
});

test('spool migrate copies the LMDB marks and baselines and reads them back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-quota-copy-'));
  const store = openStore({ rootPath: dir });
  const db = await migrated(await server.createDatabase());
  try {
    const lmdb = new LmdbQuotaStateStore(store);
    assert.equal(await lmdb.claim('p', 'monthly:2026-11-01:5:80'), true);
    assert.equal(await lmdb.claim('p', 'expiry:2026-12-01:7'), true);
    await lmdb.setBaseline('q', { setting: 10, counted: 20 });
    const reports = await copyQuotaToPg(store, db, () => undefined);
    assert.deepEqual(reports, [{ scope: 'quota', records: 3 }]);
    assert.equal(
      await new PgQuotaStateStore(db).claim('p', 'expiry:2026-12-01:7'),
      false,
      'a copied mark stays claimed',
    );
  } finally {
    await db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
