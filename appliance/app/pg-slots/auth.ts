import type { SessionStore, UserStore } from '../../auth/auth.port.js';
import { AUTH_PG_MIGRATIONS } from '../../auth/auth-pg.migrations.js';
import { openPgAuthStores } from '../../auth/auth-pg.store.js';
import type { PgSlot } from './slot.js';

/** Users and sessions on PostgreSQL (`atomically` under PG_LOCKS.users; sessions by the hash of their id). */
export const authPg: PgSlot<{ users: UserStore; sessions: SessionStore }> = {
  scope: 'auth',
  migrations: AUTH_PG_MIGRATIONS,
  open: (ctx) => openPgAuthStores(ctx.db),
};
