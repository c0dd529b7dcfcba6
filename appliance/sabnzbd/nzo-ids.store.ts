import type { Store } from '../store/index.js';
import type { NzoIdStore } from './sabnzbd.port.js';

/** Where the salt is kept in the store's bookkeeping database (the copy to PostgreSQL reads it there too). */
export const SALT_KEY = 'sabnzbd:nzo_salt';

/** The salt in the LMDB store's bookkeeping database. */
export class LmdbNzoIdStore implements NzoIdStore {
  constructor(private readonly store: Store) {}

  async saltOrCreate(make: () => string): Promise<string> {
    return this.store.transaction(() => {
      const existing = this.store.meta.get(SALT_KEY);
      if (typeof existing === 'string' && /^[a-z0-9]+$/.test(existing)) return existing;
      const salt = make();
      this.store.meta.putSync(SALT_KEY, salt);
      return salt;
    });
  }
}
