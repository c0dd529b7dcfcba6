import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../http/context.js';
import type { LoginRateLimiter } from './rate-limit.js';
import { roleOf, type UserRecord } from './user.js';
import type { AuthSettings, UsersService } from './users.service.js';

const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_MAX = 1000;

export const WEBDAV_PRINCIPAL_ID = 'webdav';

/** A user's principal; a read-only user's is `readOnly` (every route that changes something refuses it). */
export function userPrincipal(user: UserRecord, via: Principal['via'], sessionId?: string): Principal {
  const principal: Principal = { userId: user.id, name: user.name, isAdmin: user.is_admin, via };
  if (sessionId) principal.sessionId = sessionId;
  if (roleOf(user) === 'read-only') principal.readOnly = true;
  return principal;
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Parses `Basic base64(name:password)`; null when it is not Basic or is malformed. */
export function parseBasic(header: string | undefined): { name: string; password: string } | null {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * HTTP Basic for WebDAV clients and scripts: a user's name (or email) and password, or on /webdav also the
 * `webdav.user`/`webdav.password` pair from config (media players: read-only). WebDAV clients send Basic on every request and scrypt is
 * slow on purpose, so a verified header is remembered for five minutes (keyed by its hash, never in clear);
 * the user record is re-read each time so a revoked admin flag applies at once.
 */
export class BasicAuthenticator {
  private readonly verified = new Map<string, { userId: string; until: number }>();

  constructor(
    private readonly users: UsersService,
    private readonly settings: () => AuthSettings,
    private readonly limiter: LoginRateLimiter,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The principal for an Authorization header, or null. `allowWebdavCredentials` admits the config pair.
   * Every check runs under the login limiter (shared with the login form, per name and address): a name that
   * has tried too many distinct wrong passwords from this address gets RATE_LIMITED whatever it sends, the right
   * `webdav.user` pair and a remembered header included, and each new wrong password counts. Otherwise the cheap
   * pair comparison would let a guesser try passwords at full speed and learn the right one from the single 200
   * among the 429s. A client repeating one stale password does not count again (rate-limit.ts).
   */
  async verify(header: string | undefined, client: string, allowWebdavCredentials: boolean): Promise<Principal | null> {
    const creds = parseBasic(header);
    if (!creds) return null;
    this.limiter.check(client, creds.name);
    const cacheKey = sha256(header as string).toString('hex');
    const hit = this.verified.get(cacheKey);
    if (hit && hit.until > this.now()) {
      const user = await this.users.get(hit.userId);
      if (user) return userPrincipal(user, 'basic');
    }
    this.verified.delete(cacheKey);
    // The pair is compared before the limiter's "seen wrong before" answer: a password that just became right in
    // the config is accepted at once.
    if (allowWebdavCredentials && this.matchesWebdavPair(creds.name, creds.password)) {
      this.limiter.succeed(client, creds.name);
      return { userId: WEBDAV_PRINCIPAL_ID, name: creds.name, isAdmin: false, via: 'basic', readOnly: true };
    }
    const found = await this.limiter.attempt(client, creds.name, creds.password, async () => {
      const user = await this.users.verifyCredentials(creds.name, creds.password);
      return user ? userPrincipal(user, 'basic') : null;
    });
    if (!found) return found;
    if (this.verified.size >= CACHE_MAX) this.verified.clear();
    this.verified.set(cacheKey, { userId: found.userId, until: this.now() + CACHE_TTL_MS });
    return found;
  }

  private matchesWebdavPair(name: string, password: string): boolean {
    const { webdavUser, webdavPassword } = this.settings();
    if (!webdavUser || !webdavPassword) return false;
    // Compare digests so the comparison takes the same time whatever the lengths.
    const nameOk = timingSafeEqual(sha256(name), sha256(webdavUser));
    const passOk = timingSafeEqual(sha256(password), sha256(webdavPassword));
    return nameOk && passOk;
  }
}
