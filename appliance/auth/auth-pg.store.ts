import type { PgDb } from '../store/pg/index.js';
import { PgApiKeyStore } from './api-key-pg.store.js';
import type { ApiKeyStore, SessionStore, UserStore } from './auth.port.js';
import { PgSessionStore } from './session-pg.store.js';
import { PgUserStore } from './user-pg.store.js';

/** The auth ports on PostgreSQL (what `createAuth` takes; the schema migrated first: AUTH_PG_MIGRATIONS). */
export function openPgAuthStores(db: PgDb): { users: UserStore; sessions: SessionStore; apiKeys: ApiKeyStore } {
  return { users: new PgUserStore(db), sessions: new PgSessionStore(db), apiKeys: new PgApiKeyStore(db) };
}
