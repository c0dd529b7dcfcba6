import { createHash } from 'node:crypto';
import type { Database, Store } from '../store/index.js';
import type { SessionRecord, SessionStore } from './auth.port.js';

/**
 * Sessions in LMDB (the auth port's SessionStore, auth.port.ts) keyed by the SHA-256 of the session id: a copy of
 * the database does not hand out live cookies. Ids are 256 random bits, so a plain hash (no salt, no KDF) is enough.
 */
export class LmdbSessionStore implements SessionStore {
  private readonly db: Database<SessionRecord, string>;

  constructor(store: Store) {
    this.db = store.openDb<SessionRecord, string>('sessions');
  }

  private static key(id: string): string {
    return createHash('sha256').update(id).digest('hex');
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    return this.db.get(LmdbSessionStore.key(id));
  }

  async put(id: string, record: SessionRecord): Promise<void> {
    this.db.putSync(LmdbSessionStore.key(id), record);
  }

  async remove(id: string): Promise<void> {
    this.db.removeSync(LmdbSessionStore.key(id));
  }

  async removeForUser(userId: string): Promise<number> {
    return this.removeWhere((s) => s.user_id === userId);
  }

  async purgeExpired(now: number): Promise<number> {
    return this.removeWhere((s) => s.expires_at <= now);
  }

  async count(): Promise<number> {
    return this.db.getCount();
  }

  private removeWhere(match: (s: SessionRecord) => boolean): number {
    let n = 0;
    for (const { key, value } of this.db.getRange()) {
      if (match(value)) {
        this.db.removeSync(key);
        n++;
      }
    }
    return n;
  }
}
