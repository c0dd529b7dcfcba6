import { createHash, randomBytes } from 'node:crypto';
import type { Database, Store } from '../store/index.js';

export interface SessionRecord {
  user_id: string;
  created_at: number;
  /** Epoch ms; moved forward on use (sliding expiry). */
  expires_at: number;
}

/**
 * Sessions in LMDB keyed by the SHA-256 of the session id: a copy of the database does not hand out live
 * cookies. Ids are 256 random bits, so a plain hash (no salt, no KDF) is enough.
 */
export class SessionStore {
  private readonly db: Database<SessionRecord, string>;

  constructor(store: Store) {
    this.db = store.openDb<SessionRecord, string>('sessions');
  }

  static newId(): string {
    return randomBytes(32).toString('base64url');
  }

  private static key(id: string): string {
    return createHash('sha256').update(id).digest('hex');
  }

  get(id: string): SessionRecord | undefined {
    return this.db.get(SessionStore.key(id));
  }

  put(id: string, record: SessionRecord): void {
    this.db.putSync(SessionStore.key(id), record);
  }

  remove(id: string): void {
    this.db.removeSync(SessionStore.key(id));
  }

  /** Removes every session of one user except `keepId` (e.g. after a password change). */
  removeForUser(userId: string): number {
    let n = 0;
    for (const { key, value } of this.db.getRange()) {
      if (value.user_id === userId) {
        this.db.removeSync(key);
        n++;
      }
    }
    return n;
  }

  /** Deletes expired sessions; returns how many. */
  purgeExpired(now: number): number {
    let n = 0;
    for (const { key, value } of this.db.getRange()) {
      if (value.expires_at <= now) {
        this.db.removeSync(key);
        n++;
      }
    }
    return n;
  }

  count(): number {
    return this.db.getCount();
  }
}
