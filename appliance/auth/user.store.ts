import type { Database, Store } from '../store/index.js';
import type { UserStore, UserTx } from './auth.port.js';
import type { UserRecord } from './user.js';

/**
 * Users in LMDB (the auth port's UserStore, auth.port.ts): `users` maps id -> record; `user_index` maps
 * `name:<lower>`, `email:<lower>` and `apikey:<key>` to the id. A unit of work is one synchronous LMDB transaction,
 * so checks (unique name, first user) and inserts cannot interleave.
 */
export class LmdbUserStore implements UserStore {
  private readonly users: Database<UserRecord, string>;
  private readonly index: Database<string, string>;
  private readonly tx: UserTx = {
    count: () => this.users.getCount(),
    get: (id) => this.users.get(id),
    byName: (name) => this.lookup(`name:${name.toLowerCase()}`),
    byEmail: (email) => this.lookup(`email:${email.toLowerCase()}`),
    all: () => Array.from(this.users.getRange(), ({ value }) => value),
    save: (user) => this.save(user),
  };

  constructor(private readonly store: Store) {
    this.users = store.openDb<UserRecord, string>('users');
    this.index = store.openDb<string, string>('user_index');
  }

  async count(): Promise<number> {
    return this.tx.count();
  }

  async get(id: string): Promise<UserRecord | undefined> {
    return this.tx.get(id);
  }

  async byName(name: string): Promise<UserRecord | undefined> {
    return this.tx.byName(name);
  }

  async byEmail(email: string): Promise<UserRecord | undefined> {
    return this.tx.byEmail(email);
  }

  async byApiKey(key: string): Promise<UserRecord | undefined> {
    return this.lookup(`apikey:${key}`);
  }

  async list(offset: number, limit: number): Promise<UserRecord[]> {
    return Array.from(this.users.getRange({ offset, limit }), ({ value }) => value);
  }

  async all(): Promise<UserRecord[]> {
    return this.tx.all();
  }

  async atomically<T>(work: (tx: UserTx) => T): Promise<T> {
    return this.store.transaction(() => work(this.tx));
  }

  /** Inside a transaction. */
  private save(user: UserRecord): void {
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
