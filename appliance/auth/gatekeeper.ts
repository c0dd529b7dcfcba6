import { AppError } from '../errors/app-error.js';
import type { Principal } from '../http/context.js';
import type { Logger } from '../logging/logger.js';
import type { ApiKeysService, ResolvedKey } from './api-keys.service.js';
import { scopeRefusal } from './key-scope.js';
import type { ForwardAuth } from './forward-auth.js';
import type { Gatekeeper } from '../http/dispatch.js';
import type { HttpRequest } from '../http/request.js';
import { userPrincipal, type BasicAuthenticator } from './basic-auth.js';
import { SESSION_COOKIE, type SessionService } from './session.service.js';
import type { AuthSettings, UsersService } from './users.service.js';

export function isWebdavPath(path: string): boolean {
  return path === '/webdav' || path.startsWith('/webdav/');
}

/** The SABnzbd API: download clients sign in with the API key only (docs/sabnzbd.md). */
function isSabnzbdPath(path: string): boolean {
  return path === '/sabnzbd' || path.startsWith('/sabnzbd/');
}

/**
 * Who is calling, in this order: API key (`X-Api-Key` header or `apikey` query), the user a trusted proxy
 * forwards (forward-auth.ts), HTTP Basic, session cookie.
 * A credential that is present but wrong identifies nobody (the route then answers 401); it does not fall back
 * to a weaker one, so a client learns its key is wrong instead of silently acting as someone else. The console's
 * cookie does not count on /sabnzbd: that API changes the queue even through GET (SABnzbd's own design), and a
 * page of another origin could make a signed-in browser send such a GET with the cookie attached. The same API at
 * `/api?mode=` shares its path with the console, so there the SABnzbd gate itself ignores everything but a key
 * (sabnzbd/sabnzbd.routes.ts).
 */
export class AuthGatekeeper implements Gatekeeper {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly basic: BasicAuthenticator,
    private readonly settings: () => AuthSettings,
    private readonly keys: ApiKeysService,
    private readonly logger: Logger,
    private readonly forward: ForwardAuth,
  ) {}

  loginRequired(): boolean {
    return this.settings().loginRequired;
  }

  async identify(req: HttpRequest): Promise<Principal | null> {
    const key = req.header('x-api-key') ?? req.query.get('apikey');
    if (key !== undefined && key !== null) return this.byKey(key.trim(), req);
    const forwarded = await this.forward.identify(req);
    if (forwarded) return forwarded;
    const authorization = req.header('authorization');
    if (authorization && /^basic /i.test(authorization)) {
      return this.basic.verify(authorization, req.ip, isWebdavPath(req.rawPath));
    }
    const sessionId = isSabnzbdPath(req.rawPath) ? undefined : req.cookie(SESSION_COOKIE);
    if (sessionId) {
      const userId = await this.sessions.validate(sessionId);
      const user = userId ? await this.users.get(userId) : undefined;
      if (user) return userPrincipal(user, 'session', sessionId);
    }
    return null;
  }

  /** A key's principal; a key used outside its scope is refused here (logged), before any route runs. */
  private async byKey(secret: string, req: HttpRequest): Promise<Principal | null> {
    const found = await this.keys.resolve(secret, req.ip);
    if (!found) return null;
    const refused = scopeRefusal(found.scope, req.method, req.rawPath);
    if (refused) {
      this.logger.warn('API key refused outside its scope', {
        user: found.user.name,
        key: found.keyId ?? 'legacy',
        scope: found.scope,
        request: `${req.method} ${req.rawPath}`,
        ip: req.ip,
      });
      throw new AppError('KEY_SCOPE_REFUSED', refused);
    }
    return keyPrincipal(found);
  }
}

/** A key's principal: its user's role, narrowed by the scope (a read-only key reads only, WebDAV included). */
export function keyPrincipal({ user, scope }: ResolvedKey): Principal {
  const principal: Principal = { ...userPrincipal(user, 'api_key'), keyScope: scope };
  if (scope === 'read-only') principal.readOnly = true;
  return principal;
}
