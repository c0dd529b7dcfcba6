import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AUTH_PG_MIGRATIONS } from '../../../appliance/auth/auth-pg.migrations.js';
import { copyAuthToPg } from '../../../appliance/auth/auth.copy.js';
import { openPgAuthStores } from '../../../appliance/auth/auth-pg.store.js';
import { openLmdbAuthStores } from '../../../appliance/auth/auth-lmdb.store.js';
import { ApiKeysService } from '../../../appliance/auth/api-keys.service.js';
import { registerSchema } from '../../../appliance/auth/auth.schemas.js';
import { SessionService } from '../../../appliance/auth/session.service.js';
import { UsersService, type AuthSettings } from '../../../appliance/auth/users.service.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { authStoreTests } from '../../support/auth/auth-store-tests.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

async function migratedDb(url?: string): Promise<PgDb> {
  const db = await openPgDb(url ?? (await server.createDatabase()));
  await migratePg(db, { auth: AUTH_PG_MIGRATIONS });
  return db;
}

// Every test the LMDB store passes (appliance/auth/auth.test.ts), on PostgreSQL.
authStoreTests(async () => {
  const db = await migratedDb();
  return {
    ...openPgAuthStores(db),
    storedSessionKeys: async () =>
      (await db.query<{ id_hash: string }>('SELECT id_hash FROM auth_sessions')).rows.map((r) => r.id_hash),
    close: () => db.close(),
  };
});

const open: AuthSettings = { loginRequired: true, registrationEnabled: true, webdavUser: '', webdavPassword: '' };
const input = (username: string, email?: string) =>
  registerSchema.parse({ username, password: 'correct horse', ...(email ? { email } : {}) });

/** Two nodes: two pools on one database, each with its own stores (as two Spool processes have). */
async function twoNodes(): Promise<{ a: PgDb; b: PgDb; close(): Promise<void> }> {
  const url = await server.createDatabase();
  const a = await migratedDb(url);
  const b = await migratedDb(url);
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
}

test('two first registrations on two nodes at once: exactly one admin', async () => {
  const nodes = await twoNodes();
  try {
    for (let round = 0; round < 5; round++) {
      await nodes.a.query('TRUNCATE auth_users');
      const [ua, ub] = [nodes.a, nodes.b].map((db) => new UsersService(openPgAuthStores(db).users, () => open));
      const made = await Promise.all([ua!.register(input(`one${round}`)), ub!.register(input(`two${round}`))]);
      assert.equal(made.filter((u) => u.is_admin).length, 1, `round ${round}`);
      assert.equal(await ua!.count(), 2);
    }
  } finally {
    await nodes.close();
  }
});

test('a user saved through one node is found by name, email and API key through the other; a session too', async () => {
  const nodes = await twoNodes();
  try {
    const a = openPgAuthStores(nodes.a);
    const b = openPgAuthStores(nodes.b);
    const alice = await new UsersService(a.users, () => open).register(input('Alice', 'Alice@Example.com'));
    assert.deepEqual(await b.users.byName('ALICE'), alice);
    assert.deepEqual(await b.users.byEmail('alice@example.COM'), alice);
    assert.deepEqual(await b.users.byApiKey(alice.api_key), alice);
    assert.deepEqual(await b.users.list(0, 10), [alice]);

    const sid = await new SessionService(a.sessions).create(alice.id);
    assert.equal(await new SessionService(b.sessions).validate(sid), alice.id);
    await new SessionService(b.sessions).end(sid);
    assert.equal(await new SessionService(a.sessions).validate(sid), null, 'signed out on one: out on both');
  } finally {
    await nodes.close();
  }
});

test('users list in creation order, paged; removeForUser and purge count what they removed', async () => {
  const db = await migratedDb();
  try {
    const { users, sessions } = openPgAuthStores(db);
    const service = new UsersService(users, () => open);
    const made = [];
    for (const name of ['zed', 'amy', 'Bob', 'cyd']) made.push(await service.register(input(name)));
    const ids = made.map((u) => u.id);
    assert.deepEqual(
      (await users.list(0, 10)).map((u) => u.id),
      [...ids].sort(),
    );
    assert.deepEqual(
      (await users.list(1, 2)).map((u) => u.id),
      [...ids].sort().slice(1, 3),
    );
    await sessions.put('s1', { user_id: 'u1', created_at: 1, expires_at: 100 });
    await sessions.put('s2', { user_id: 'u1', created_at: 1, expires_at: 300 });
    await sessions.put('s3', { user_id: 'u2', created_at: 1, expires_at: 200 });
    assert.deepEqual(await sessions.get('s2'), { user_id: 'u1', created_at: 1, expires_at: 300 });
    assert.equal(await sessions.purgeExpired(200), 2);
    assert.equal(await sessions.removeForUser('u1'), 1);
    assert.equal(await sessions.count(), 0);
  } finally {
    await db.close();
  }
});

test('an LMDB install’s users, named API keys and sessions copy into PostgreSQL and still sign in', async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-auth-copy-'));
  const lmdb = openStore({ rootPath: root });
  const db = await migratedDb();
  try {
    const from = openLmdbAuthStores(lmdb);
    const service = new UsersService(from.users, () => open);
    const alice = await service.register(input('alice', 'alice@example.com'));
    const bob = await service.register(input('bob'));
    const sid = await new SessionService(from.sessions).create(bob.id);
    const { secret } = await new ApiKeysService(from.apiKeys, service).create(bob.id, 'radarr', 'sabnzbd');
    const messages: string[] = [];
    const report = await copyAuthToPg(lmdb, db, (m) => messages.push(m));
    assert.deepEqual(report, [{ scope: 'auth', records: 4 }]);
    assert.match(messages.join('\n'), /2 users, 1 API keys and 1 sessions/);
    const to = openPgAuthStores(db);
    assert.deepEqual(await to.users.all(), [alice, bob]);
    const resolved = await new ApiKeysService(to.apiKeys, new UsersService(to.users, () => open)).resolve(
      secret,
      '::1',
    );
    assert.deepEqual([resolved?.user.id, resolved?.scope], [bob.id, 'sabnzbd'], 'the named key still works');
    assert.equal(await new SessionService(to.sessions).validate(sid), bob.id, 'the browser stays signed in');
    await assert.rejects(
      copyAuthToPg(lmdb, db, () => undefined),
      /duplicate key/,
      'a second copy is refused',
    );
  } finally {
    await db.close();
    await lmdb.close();
    rmSync(root, { recursive: true, force: true });
  }
});
