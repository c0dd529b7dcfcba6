import type { PgDb } from '../store/pg/index.js';
import type { ApiKeyRecord } from './api-key.js';
import type { ApiKeyStore } from './auth.port.js';

/** Named API keys in PostgreSQL (auth.port.ts): `auth_api_keys`, the record as jsonb, found by id, hash or user. */
export class PgApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: PgDb) {}

  async byHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return (await this.where('hash = $1', hash))[0];
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    return (await this.where('id = $1', id))[0];
  }

  forUser(userId: string): Promise<ApiKeyRecord[]> {
    return this.where('user_id = $1', userId);
  }

  async all(): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.query<{ record: ApiKeyRecord }>('SELECT record FROM auth_api_keys ORDER BY id');
    return rows.map((r) => r.record);
  }

  async save(key: ApiKeyRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO auth_api_keys (id, user_id, hash, record) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, record = EXCLUDED.record`,
      [key.id, key.user_id, key.hash, key],
    );
  }

  async remove(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM auth_api_keys WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }

  private async where(clause: string, value: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.query<{ record: ApiKeyRecord }>(
      `SELECT record FROM auth_api_keys WHERE ${clause} ORDER BY id`,
      [value],
    );
    return rows.map((r) => r.record);
  }
}
