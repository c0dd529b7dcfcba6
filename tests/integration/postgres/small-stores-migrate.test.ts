/**
 * `spool migrate` moves an LMDB install's users, sessions, nzo_id salt, download totals and bytes fetched into
 * PostgreSQL (the auth, sabnzbd and streams entries of appliance/app/pg-domains.ts), and the app's PostgreSQL slots
 * for those domains (appliance/app/pg-slots/) open on the copy and answer as the LMDB stores did.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { migrateToPg } from '../../../appliance/app/migrate-to-pg.js';
import { STORAGE_DOMAINS } from '../../../appliance/app/storage-domains.js';
import { authStorage } from '../../../appliance/auth/auth.storage.js';
import { sabnzbdStorage } from '../../../appliance/sabnzbd/sabnzbd.storage.js';
import type { PgOpening } from '../../../appliance/store/index.js';
import { streamsStorage } from '../../../appliance/streams/streams.storage.js';
import { openLmdbAuthStores } from '../../../appliance/auth/auth-lmdb.store.js';
import { registerSchema } from '../../../appliance/auth/auth.schemas.js';
import { SessionService } from '../../../appliance/auth/session.service.js';
import { UsersService } from '../../../appliance/auth/users.service.js';
import { ConfigService } from '../../../appliance/config/index.js';
import { createLogger } from '../../../appliance/logging/logger.js';
import { NzoIds } from '../../../appliance/sabnzbd/nzo-ids.js';
import { LmdbDownloadTotalsStore, LmdbNzoIdStore } from '../../../appliance/sabnzbd/index.js';
import { openStore } from '../../../appliance/store/index.js';
import { openPgDb } from '../../../appliance/store/pg/index.js';
import { LmdbFetchedBytesStore } from '../../../appliance/streams/fetched-bytes.store.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

let server: PostgresServer;
const dataDir = mkdtempSync(`${tmpdir()}/spool-small-migrate-`);
before(async () => (server = await startPostgres()));
after(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('users, sessions, salt, totals and bytes fetched move into PostgreSQL and the slots open on them', async () => {
  const logger = createLogger('test', 'error');
  const config = await ConfigService.open({ dataDir, env: {}, logger });
  const lmdb = openStore({ rootPath: resolve(dataDir, config.get().metadata.root_path) });
  const auth = openLmdbAuthStores(lmdb);
  const users = new UsersService(auth.users, () => ({
    loginRequired: true,
    registrationEnabled: true,
    webdavUser: '',
    webdavPassword: '',
  }));
  const alice = await users.register(registerSchema.parse({ username: 'alice', password: 'alice-password' }));
  const sid = await new SessionService(auth.sessions).create(alice.id);
  const nzo = (await NzoIds.open(new LmdbNzoIdStore(lmdb))).of(5);
  const totals = new LmdbDownloadTotalsStore(lmdb);
  await totals.add({ day: '2026-11-25', providerId: 'p' }, { host: 'news.example', bytes: 9, tried: 3, failed: 1 });
  await totals.flushed();
  const fetched = new LmdbFetchedBytesStore(lmdb);
  await fetched.add({ day: '2026-11-25', bytes: { player: 1, read_ahead: 2, scanner: 3, health: 4, import: 5 } });
  const wantTotals = [...totals.all()];
  const wantFetched = [...fetched.all()];
  await lmdb.close();

  const url = await server.createDatabase();
  const lines: string[] = [];
  const mine = STORAGE_DOMAINS.filter((d) => ['auth', 'sabnzbd', 'streams'].includes(d.scope));
  const out = await migrateToPg({ from: dataDir, to: url, domains: mine, print: (l) => lines.push(l) });
  assert.deepEqual(out.failures, [], lines.join('\n'));
  assert.deepEqual(
    out.reports.map((r) => [r.scope, r.records]),
    [
      ['auth', 2],
      ['sabnzbd', 2],
      ['streams', 1],
    ],
  );

  const db = await openPgDb(url);
  const closers: (() => void | Promise<void>)[] = [];
  const ctx: PgOpening = {
    db,
    local: undefined as never, // none of these domains keeps node-local state
    dataDir,
    logger,
    onClose: (close) => void closers.push(close),
  };
  try {
    const pgAuth = await authStorage.pg.open(ctx);
    assert.deepEqual(await pgAuth.users.byName('ALICE'), alice);
    assert.equal(await new SessionService(pgAuth.sessions).validate(sid), alice.id);
    const sab = await sabnzbdStorage.pg.open(ctx);
    assert.equal((await NzoIds.open(sab.nzoIds)).of(5), nzo);
    assert.deepEqual([...sab.downloadTotals.all()], wantTotals);
    const { fetchedBytes } = await streamsStorage.pg.open(ctx);
    assert.deepEqual([...fetchedBytes.all()], wantFetched);
  } finally {
    for (const close of closers.reverse()) await close();
    await db.close();
  }
});
