import { migrate, type Store } from '../store/index.js';
import { LmdbApiKeyStore } from './api-key.store.js';
import type { ApiKeyStore, SessionStore, UserStore } from './auth.port.js';
import { AUTH_MIGRATIONS } from './auth.migrations.js';
import { LmdbSessionStore } from './session.store.js';
import { LmdbUserStore } from './user.store.js';

/** The auth ports on the LMDB store, its schema brought up to date first (what `createAuth` takes). */
export function openLmdbAuthStores(store: Store): { users: UserStore; sessions: SessionStore; apiKeys: ApiKeyStore } {
  migrate(store, 'auth', AUTH_MIGRATIONS);
  return {
    users: new LmdbUserStore(store),
    sessions: new LmdbSessionStore(store),
    apiKeys: new LmdbApiKeyStore(store),
  };
}
