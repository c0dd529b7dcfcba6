import { SessionStore } from './session.store.js';

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

  create(userId: string): string {
    const id = SessionStore.newId();
    const now = this.now();
    this.repo.put(id, { user_id: userId, created_at: now, expires_at: now + this.ttl });
    return id;
  }

  /** The user id of a live session, or null. Expired sessions are deleted on sight. */
  validate(id: string): string | null {
    const session = this.repo.get(id);
    if (!session) return null;
    const now = this.now();
    if (session.expires_at <= now) {
      this.repo.remove(id);
      return null;
    }
    if (session.expires_at - this.ttl + SLIDE_EVERY_MS <= now) {
      this.repo.put(id, { ...session, expires_at: now + this.ttl });
    }
    return session.user_id;
  }

  end(id: string): void {
    this.repo.remove(id);
  }

  endAllFor(userId: string): number {
    return this.repo.removeForUser(userId);
  }

  purgeExpired(): number {
    return this.repo.purgeExpired(this.now());
  }
}
