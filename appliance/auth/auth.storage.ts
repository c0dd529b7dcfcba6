import type { StorageDomain } from '../store/index.js';
import { openLmdbAuthStores } from './auth-lmdb.store.js';
import { AUTH_PG_MIGRATIONS } from './auth-pg.migrations.js';
import { openPgAuthStores } from './auth-pg.store.js';
import type { ApiKeyStore, SessionStore, UserStore } from './auth.port.js';
import { copyAuthToLmdb } from './auth-lmdb.copy.js';
import { copyAuthToPg } from './auth.copy.js';

/** Users, sessions and named API keys (on PostgreSQL: `atomically` under PG_LOCKS.users; sessions by the hash of their id). */
export const authStorage: StorageDomain<{ users: UserStore; sessions: SessionStore; apiKeys: ApiKeyStore }> = {
  scope: 'auth',
  lmdb: ({ local }) => openLmdbAuthStores(local),
  pg: { migrations: AUTH_PG_MIGRATIONS, open: ({ db }) => openPgAuthStores(db) },
  copy: ({ store, db, progress }) => copyAuthToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyAuthToLmdb(db, store, progress),
};
