import { randomBytes } from 'node:crypto';
import type { SessionStore } from './auth.port.js';

export const SESSION_COOKIE = 'spool_session';
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** A session's expiry is pushed forward at most this often, so reads do not turn into a write per request. */
const SLIDE_EVERY_MS = 3600 * 1000;

export interface SessionOptions {
  ttlMs?: number;
  now?: () => number;
}

/** Creates, validates (with sliding expiry) and ends sessions. */
export class SessionService {
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(
    private readonly repo: SessionStore,
    opts: SessionOptions = {},
  ) {
    this.ttl = opts.ttlMs ?? SESSION_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  get ttlSeconds(): number {
    return Math.floor(this.ttl / 1000);
  }

  async create(userId: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.repo.put(id, { user_id: userId, created_at: now, expires_at: now + this.ttl });
    return id;
  }

  /** The user id of a live session, or null. Expired sessions are deleted on sight. */
  async validate(id: string): Promise<string | null> {
    const session = await this.repo.get(id);
    if (!session) return null;
    const now = this.now();
    if (session.expires_at <= now) {
      await this.repo.remove(id);
      return null;
    }
    if (session.expires_at - this.ttl + SLIDE_EVERY_MS <= now) {
      await this.repo.put(id, { ...session, expires_at: now + this.ttl });
    }
    return session.user_id;
  }

  end(id: string): Promise<void> {
    return this.repo.remove(id);
  }

  endAllFor(userId: string): Promise<number> {
    return this.repo.removeForUser(userId);
  }

  purgeExpired(): Promise<number> {
    return this.repo.purgeExpired(this.now());
  }
}
