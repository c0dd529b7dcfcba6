import type { Database, Store } from '../store/index.js';
import type { ApiKeyRecord } from './api-key.js';
import type { ApiKeyStore } from './auth.port.js';

/** Named API keys in LMDB (auth.port.ts): `api_keys` maps id -> record, `api_key_hashes` the secret's hash -> id. */
export class LmdbApiKeyStore implements ApiKeyStore {
  private readonly keys: Database<ApiKeyRecord, string>;
  private readonly hashes: Database<string, string>;

  constructor(private readonly store: Store) {
    this.keys = store.openDb<ApiKeyRecord, string>('api_keys');
    this.hashes = store.openDb<string, string>('api_key_hashes');
  }

  async byHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const id = this.hashes.get(hash);
    return id === undefined ? undefined : this.keys.get(id);
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.get(id);
  }

  async forUser(userId: string): Promise<ApiKeyRecord[]> {
    return (await this.all()).filter((k) => k.user_id === userId);
  }

  async all(): Promise<ApiKeyRecord[]> {
    return Array.from(this.keys.getRange(), ({ value }) => value);
  }

  async save(key: ApiKeyRecord): Promise<void> {
    this.store.transaction(() => {
      this.keys.putSync(key.id, key);
      this.hashes.putSync(key.hash, key.id);
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.store.transaction(() => {
      const key = this.keys.get(id);
      if (!key) return false;
      this.keys.removeSync(id);
      this.hashes.removeSync(key.hash);
      return true;
    });
  }
}
