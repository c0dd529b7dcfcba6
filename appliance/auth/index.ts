import type { Logger } from '../logging/logger.js';
import { migrate, type Migration, type Store } from '../store/index.js';
import { AuthService } from './auth.service.js';
import { BasicAuthenticator } from './basic-auth.js';
import { AuthGatekeeper } from './gatekeeper.js';
import { LoginRateLimiter, type RateLimitOptions } from './rate-limit.js';
import { SessionStore } from './session.store.js';
import { SessionService, type SessionOptions } from './session.service.js';
import { UserStore } from './user.store.js';
import { UsersService, type AuthSettings } from './users.service.js';

export { AuthService } from './auth.service.js';
export { AuthGatekeeper, isWebdavPath } from './gatekeeper.js';
export { BasicAuthenticator, parseBasic, WEBDAV_PRINCIPAL_ID } from './basic-auth.js';
export { UsersService, type AuthSettings } from './users.service.js';
export { SessionService, SESSION_COOKIE, SESSION_TTL_MS } from './session.service.js';
export { toUserJson, type UserRecord } from './user.js';
export type { UserJson } from './auth.wire.js';

const AUTH_MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'users, user_index and sessions databases',
    up: (store) => {
      store.openDb('users');
      store.openDb('user_index');
      store.openDb('sessions');
    },
  },
];

export interface AuthDomain {
  auth: AuthService;
  users: UsersService;
  sessions: SessionService;
  gatekeeper: AuthGatekeeper;
  /** HTTP Basic check for WebDAV (user name/password, plus webdav.user/password when allowed). */
  basic: BasicAuthenticator;
  /** Stops the expired-session sweeper. */
  close(): void;
}

export interface CreateAuthOptions {
  store: Store;
  settings: () => AuthSettings;
  logger: Logger;
  session?: SessionOptions;
  rateLimit?: RateLimitOptions;
}

export function createAuth(opts: CreateAuthOptions): AuthDomain {
  migrate(opts.store, 'auth', AUTH_MIGRATIONS);
  const users = new UsersService(new UserStore(opts.store), opts.settings);
  const sessions = new SessionService(new SessionStore(opts.store), opts.session);
  const limiter = new LoginRateLimiter(opts.rateLimit);
  const basic = new BasicAuthenticator(users, opts.settings, limiter);
  const auth = new AuthService(users, sessions, limiter);
  const gatekeeper = new AuthGatekeeper(users, sessions, basic, opts.settings);
  const sweep = () => {
    const n = sessions.purgeExpired();
    if (n > 0) opts.logger.info('expired sessions removed', { count: n });
  };
  sweep();
  const timer = setInterval(sweep, 3600 * 1000);
  timer.unref();
  return { auth, users, sessions, gatekeeper, basic, close: () => clearInterval(timer) };
}
