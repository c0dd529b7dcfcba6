import { isDeepStrictEqual } from 'node:util';
import type { CopyToLmdb } from '../store/pg/index.js';
import type { SessionRecord } from './auth.port.js';
import { openLmdbAuthStores } from './auth-lmdb.store.js';
import { PgApiKeyStore } from './api-key-pg.store.js';
import { PgSessionStore } from './session-pg.store.js';
import { PgUserStore } from './user-pg.store.js';

/**
 * Copies the users, named API keys (hashed) and sessions (under the same hashes) of a PostgreSQL install into an
 * empty LMDB environment (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy), then reads each back
 * through the LMDB stores: every user equal and found by its name, email and API key, every key and session equal.
 */
export const copyAuthToLmdb: CopyToLmdb = async (from, to, progress) => {
  const users = await new PgUserStore(from).all();
  const keys = await new PgApiKeyStore(from).all();
  const pgSessions = new PgSessionStore(from);
  const hashes = (await from.query<{ h: string }>('SELECT id_hash AS h FROM auth_sessions ORDER BY id_hash')).rows;
  const sessions: { hash: string; record: SessionRecord }[] = [];
  for (const { h } of hashes) {
    const record = await pgSessions.byHash(h);
    if (record) sessions.push({ hash: h, record });
  }
  progress(`copying ${users.length} users, ${keys.length} API keys and ${sessions.length} sessions`);
  const lmdb = openLmdbAuthStores(to);
  await lmdb.users.atomically((tx) => users.forEach((u) => tx.save(u)));
  for (const key of keys) await lmdb.apiKeys.save(key);
  const sessionDb = to.openDb<SessionRecord, string>('sessions');
  to.transaction(() => sessions.forEach((s) => sessionDb.putSync(s.hash, s.record)));

  if (!isDeepStrictEqual(byId(await lmdb.users.all()), byId(users))) throw new Error('the users read back differ');
  for (const user of users) {
    const found = [
      await lmdb.users.byName(user.name),
      user.email ? await lmdb.users.byEmail(user.email) : user,
      await lmdb.users.byApiKey(user.api_key),
    ];
    if (found.some((u) => u?.id !== user.id))
      throw new Error(`user '${user.name}' is not found by its name, email or API key after the copy`);
  }
  if (!isDeepStrictEqual(byId(await lmdb.apiKeys.all()), byId(keys))) throw new Error('the API keys read back differ');
  for (const s of sessions)
    if (!isDeepStrictEqual(sessionDb.get(s.hash), s.record))
      throw new Error(`session ${s.hash.slice(0, 8)}… read back differs from PostgreSQL`);
  if ((await lmdb.sessions.count()) !== sessions.length) throw new Error('the session count differs');
  return [{ scope: 'auth', records: users.length + keys.length + sessions.length }];
};

function byId<T extends { id: string }>(all: readonly T[]): T[] {
  return [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
