import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import type { SessionRecord } from './auth.port.js';
import { PgSessionStore } from './session-pg.store.js';
import { LmdbApiKeyStore } from './api-key.store.js';
import { PgApiKeyStore } from './api-key-pg.store.js';
import { LmdbUserStore } from './user.store.js';
import { PgUserStore, saveUser } from './user-pg.store.js';

/**
 * Copies the users, named API keys (hashed, as stored) and sessions of an LMDB install into PostgreSQL (`spool migrate`), then reads each back through
 * the PostgreSQL stores: every user equal and found by its name, email and API key; every session equal under the
 * same hash (sessions stay hashed: the copy never sees a live id, and signed-in browsers stay signed in).
 */
export const copyAuthToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const users = await new LmdbUserStore(from).all();
  const sessions = Array.from(from.openDb<SessionRecord, string>('sessions').getRange(), ({ key, value }) => ({
    hash: key,
    record: value,
  }));
  const keys = await new LmdbApiKeyStore(from).all();
  progress(`copying ${users.length} users, ${keys.length} API keys and ${sessions.length} sessions`);
  const pgSessions = new PgSessionStore(to);
  await to.tx(async (tx) => {
    for (const user of users) await saveUser(tx, user, true);
  });
  for (const s of sessions) await pgSessions.putHashed(s.hash, s.record, true);
  const pgKeys = new PgApiKeyStore(to);
  for (const key of keys) await pgKeys.save(key);
  if (!isDeepStrictEqual(await pgKeys.all(), keys)) throw new Error('the API keys read back differ from LMDB');

  const pgUsers = new PgUserStore(to);
  if (!isDeepStrictEqual(await pgUsers.all(), users)) throw new Error('the users read back differ from LMDB');
  for (const user of users) {
    const found = [
      await pgUsers.byName(user.name),
      user.email ? await pgUsers.byEmail(user.email) : user,
      await pgUsers.byApiKey(user.api_key),
    ];
    if (found.some((u) => u?.id !== user.id))
      throw new Error(`user '${user.name}' is not found by its name, email or API key after the copy`);
  }
  for (const s of sessions) {
    if (!isDeepStrictEqual(await pgSessions.byHash(s.hash), s.record))
      throw new Error(`session ${s.hash.slice(0, 8)}… read back differs from LMDB`);
  }
  if ((await pgSessions.count()) !== sessions.length) throw new Error('the session count differs from LMDB');
  return [{ scope: 'auth', records: users.length + keys.length + sessions.length }];
};
