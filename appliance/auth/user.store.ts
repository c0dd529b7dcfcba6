import type { Database, Store } from '../store/index.js';
import type { UserRecord } from './user.js';

/**
 * Users in LMDB: `users` maps id -> record; `user_index` maps `name:<lower>`, `email:<lower>` and `apikey:<key>`
 * to the id. Writes are synchronous transactions so checks (unique name, first user) and inserts cannot interleave.
 */
export class UserStore {
  private readonly users: Database<UserRecord, string>;
  private readonly index: Database<string, string>;

  constructor(private readonly store: Store) {
    this.users = store.openDb<UserRecord, string>('users');
    this.index = store.openDb<string, string>('user_index');
  }

  count(): number {
    return this.users.getCount();
  }

  get(id: string): UserRecord | undefined {
    return this.users.get(id);
  }

  byName(name: string): UserRecord | undefined {
    return this.lookup(`name:${name.toLowerCase()}`);
  }

  byEmail(email: string): UserRecord | undefined {
    return this.lookup(`email:${email.toLowerCase()}`);
  }

  byApiKey(key: string): UserRecord | undefined {
    return this.lookup(`apikey:${key}`);
  }

  /** Sorted by creation (ids are time-ordered), paged. */
  list(offset: number, limit: number): UserRecord[] {
    return Array.from(this.users.getRange({ offset, limit }), ({ value }) => value);
  }

  all(): UserRecord[] {
    return Array.from(this.users.getRange(), ({ value }) => value);
  }

  /** Runs `fn` in one write transaction (see Store.transaction). */
  atomically<T>(fn: () => T): T {
    return this.store.transaction(fn);
  }

  /** Inserts or replaces, keeping the lookup index in step. Call inside `atomically`. */
  save(user: UserRecord): void {
    const before = this.users.get(user.id);
    if (before) {
      this.index.removeSync(`name:${before.name.toLowerCase()}`);
      if (before.email) this.index.removeSync(`email:${before.email.toLowerCase()}`);
      this.index.removeSync(`apikey:${before.api_key}`);
    }
    this.users.putSync(user.id, user);
    this.index.putSync(`name:${user.name.toLowerCase()}`, user.id);
    if (user.email) this.index.putSync(`email:${user.email.toLowerCase()}`, user.id);
    this.index.putSync(`apikey:${user.api_key}`, user.id);
  }

  private lookup(key: string): UserRecord | undefined {
    const id = this.index.get(key);
    return id === undefined ? undefined : this.users.get(id);
  }
}
