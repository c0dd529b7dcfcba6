import type { SessionStore, UserStore } from '../../auth/auth.port.js';
import { notBuiltYet, type PgSlot } from './slot.js';

/**
 * SLOT auth (users and sessions, `atomically` under PG_LOCKS.users). To fill: scope 'auth', migrations
 * AUTH_PG_MIGRATIONS (auth/auth-pg.migrations.ts), open: the stores of auth/*-pg.store.ts on `ctx.db`.
 */
export const authPg: PgSlot<{ users: UserStore; sessions: SessionStore }> = notBuiltYet('auth', 'users and sessions');
