import type { Logger } from '../logging/logger.js';
import { AuthService } from './auth.service.js';
import { BasicAuthenticator } from './basic-auth.js';
import { AuthGatekeeper } from './gatekeeper.js';
import { LoginRateLimiter, type RateLimitOptions } from './rate-limit.js';
import { ApiKeysService } from './api-keys.service.js';
import { ForwardAuth } from './forward-auth.js';
import { OidcSignIn } from './oidc.js';
import type { ApiKeyStore, SessionStore, UserStore } from './auth.port.js';
import { SessionService, type SessionOptions } from './session.service.js';
import { UsersService, type AuthSettings } from './users.service.js';

export { AuthService } from './auth.service.js';
export { AuthGatekeeper, isWebdavPath } from './gatekeeper.js';
export { BasicAuthenticator, parseBasic, WEBDAV_PRINCIPAL_ID } from './basic-auth.js';
export { UsersService, type AuthSettings } from './users.service.js';
export { SessionService, SESSION_COOKIE, SESSION_TTL_MS } from './session.service.js';
export { roleOf, toUserJson, type UserRecord } from './user.js';
export { USER_ROLES, type UserRole } from './auth.wire.js';
export type { UserJson } from './auth.wire.js';
export type { ApiKeyStore, SessionRecord, SessionStore, UserStore, UserTx } from './auth.port.js';
export { ApiKeysService, type ResolvedKey } from './api-keys.service.js';
export { toApiKeyJson, KEY_SCOPES, type KeyScope } from './api-key.js';
export { sabModeRefusal } from './key-scope.js';
export { OIDC_CALLBACK_PATH, OIDC_STATE_COOKIE, OidcSignIn } from './oidc.js';

export interface AuthDomain {
  auth: AuthService;
  users: UsersService;
  sessions: SessionService;
  /** Named API keys with scopes (api-keys.service.ts). */
  apiKeys: ApiKeysService;
  gatekeeper: AuthGatekeeper;
  /** HTTP Basic check for WebDAV (user name/password, plus webdav.user/password when allowed). */
  basic: BasicAuthenticator;
  /** OpenID Connect sign-in (oidc.ts). */
  oidc: OidcSignIn;
  /** Stops the expired-session sweeper. */
  close(): void;
}

export interface CreateAuthOptions {
  /** Where users and sessions live (`openLmdbAuthStores(store)`, auth-lmdb.store.ts, in the app). */
  users: UserStore;
  sessions: SessionStore;
  apiKeys: ApiKeyStore;
  settings: () => AuthSettings;
  logger: Logger;
  session?: SessionOptions;
  rateLimit?: RateLimitOptions;
}

export function createAuth(opts: CreateAuthOptions): AuthDomain {
  const users = new UsersService(opts.users, opts.settings);
  const sessions = new SessionService(opts.sessions, opts.session);
  const limiter = new LoginRateLimiter(opts.rateLimit);
  const basic = new BasicAuthenticator(users, opts.settings, limiter);
  const auth = new AuthService(users, sessions, limiter);
  const apiKeys = new ApiKeysService(opts.apiKeys, users);
  const forward = new ForwardAuth(users, opts.settings, opts.logger);
  const gatekeeper = new AuthGatekeeper(users, sessions, basic, opts.settings, apiKeys, opts.logger, forward);
  const sweep = () =>
    void sessions.purgeExpired().then(
      (n) => n > 0 && opts.logger.info('expired sessions removed', { count: n }),
      (err: Error) => opts.logger.warn('removing expired sessions failed', { error: err.message }),
    );
  sweep();
  const timer = setInterval(sweep, 3600 * 1000);
  timer.unref();
  const oidc = new OidcSignIn(users, sessions, opts.settings, opts.logger.child('oidc'));
  return { auth, users, sessions, apiKeys, gatekeeper, basic, oidc, close: () => clearInterval(timer) };
}
