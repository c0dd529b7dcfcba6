/**
 * Stream links on the real PostgreSQL harness: every test the LMDB store passes, a link made on one node and
 * revoked on another (two pools on one database, as two Spool processes have) refused by both at once, a secret
 * rotated on one node revoking the other's links, and `spool migrate` moving an LMDB install's links and secret so
 * the URLs already handed out keep working.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { copyStreamLinksToPg } from '../../../appliance/streamlinks/stream-links.copy.js';
import { STREAM_LINKS_PG_MIGRATIONS } from '../../../appliance/streamlinks/stream-links-pg.migrations.js';
import { openPgStreamLinkStore } from '../../../appliance/streamlinks/stream-links-pg.store.js';
import { openStreamLinkStore } from '../../../appliance/streamlinks/stream-links.store.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { partsOf, streamLinkService, streamLinkStoreTests } from '../../support/streamlinks/stream-link-store-tests.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

async function migratedDb(url?: string): Promise<PgDb> {
  const db = await openPgDb(url ?? (await server.createDatabase()));
  await migratePg(db, { streamlinks: STREAM_LINKS_PG_MIGRATIONS });
  return db;
}

streamLinkStoreTests(async () => {
  const db = await migratedDb();
  return { store: openPgStreamLinkStore(db), close: () => db.close() };
});

const FILM = '/content/movies/Film (2024)/Film (2024).mkv';

test('a link made on one node plays on the other; revoked on either, both refuse it at its next request', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await migratedDb(url), await migratedDb(url)];
  try {
    const nodeA = streamLinkService(openPgStreamLinkStore(a)).links;
    const nodeB = streamLinkService(openPgStreamLinkStore(b)).links;
    const made = await nodeA.create({ path: FILM, createdBy: 'admin' });
    const { token, name } = partsOf(made.url);
    assert.equal((await nodeB.check(token, `/${name}`)).ok, true, 'the other node knows the link and its secret');
    assert.equal((await nodeA.check(token, `/${name}`)).ok, true);
    assert.equal(await nodeB.revoke(made.link.id), true);
    assert.deepEqual(await nodeA.check(token, `/${name}`), { ok: false, reason: 'unknown' });
    assert.deepEqual(await nodeB.check(token, `/${name}`), { ok: false, reason: 'unknown' });

    const kept = partsOf((await nodeB.create({ path: FILM, createdBy: 'admin' })).url);
    assert.equal((await nodeA.check(kept.token, `/${kept.name}`)).ok, true);
    await nodeA.rotateSecret();
    assert.deepEqual(await nodeB.check(kept.token, `/${kept.name}`), { ok: false, reason: 'tampered' });
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('two nodes making the first link at once agree on one secret', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await migratedDb(url), await migratedDb(url)];
  try {
    const [sa, sb] = await Promise.all([openPgStreamLinkStore(a).secret(), openPgStreamLinkStore(b).secret()]);
    assert.ok(sa.equals(sb));
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('spool migrate copies the links and their secret: a URL handed out on LMDB still plays on PostgreSQL', async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-links-migrate-'));
  const lmdb = openStore({ rootPath: root });
  const db = await migratedDb();
  try {
    const before = streamLinkService(openStreamLinkStore(lmdb)).links;
    const film = await before.create({ path: FILM, createdBy: 'admin' });
    const show = await before.create({ path: '/content/tv/Show', folder: true, ttlSeconds: 3600, createdBy: 'strm' });
    const revoked = await before.create({ path: FILM, createdBy: 'admin' });
    await before.revoke(revoked.link.id);

    const lines: string[] = [];
    const reports = await copyStreamLinksToPg(lmdb, db, (m) => lines.push(m));
    assert.deepEqual(reports, [{ scope: 'streamlinks', records: 3 }]);
    assert.ok(lines.includes('copying 2 stream links'));

    const after = streamLinkService(openPgStreamLinkStore(db)).links;
    const f = partsOf(film.url);
    assert.equal((await after.check(f.token, `/${f.name}`)).ok, true);
    const s = partsOf(show.url);
    const inside = await after.check(s.token, '/S01/e1.mkv');
    assert.equal(inside.ok && inside.path, '/content/tv/Show/S01/e1.mkv');
    const r = partsOf(revoked.url);
    assert.deepEqual(await after.check(r.token, `/${r.name}`), { ok: false, reason: 'unknown' });
    assert.equal(await after.urlOf(film.link), film.url);
  } finally {
    await db.close();
    await lmdb.close();
    rmSync(root, { recursive: true, force: true });
  }
});
