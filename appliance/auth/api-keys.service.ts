import { noSuchRecord } from '../errors/app-error.js';
import type { ApiKeyRecord, KeyScope } from './api-key.js';
import { hashKey, newKeyId, newKeySecret } from './api-key.js';
import type { ApiKeyStore } from './auth.port.js';
import type { UserRecord } from './user.js';
import type { UsersService } from './users.service.js';

/** A key that let a call in: whose it is and what it may do. `keyId` is absent for a user's legacy key. */
export interface ResolvedKey {
  user: UserRecord;
  scope: KeyScope;
  keyId?: string;
}

/** Last use is written at most this often per key (every call would be a write per request). */
const TOUCH_EVERY_MS = 60_000;

/**
 * Named API keys (docs/security.md, "API keys"): created with a name and a scope, the secret shown once, listed
 * with their last use, revoked at once (every call looks the key up again; nothing is cached). The user's own
 * key from before named keys (`UserRecord.api_key`) keeps working with scope `full`.
 */
export class ApiKeysService {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly users: UsersService,
    private readonly now: () => number = Date.now,
  ) {}

  async create(userId: string, name: string, scope: KeyScope): Promise<{ key: ApiKeyRecord; secret: string }> {
    const secret = newKeySecret();
    const key: ApiKeyRecord = {
      id: newKeyId(),
      user_id: userId,
      name,
      scope,
      hash: hashKey(secret),
      created_at: new Date(this.now()).toISOString(),
      last_used_at: null,
      last_used_ip: null,
    };
    await this.store.save(key);
    return { key, secret };
  }

  list(userId: string): Promise<ApiKeyRecord[]> {
    return this.store.forUser(userId);
  }

  /** Revokes one of `userId`'s keys (another user's key is "not found", as if it did not exist). */
  async revoke(userId: string, id: string): Promise<void> {
    const key = await this.store.get(id);
    if (!key || key.user_id !== userId || !(await this.store.remove(id)))
      throw noSuchRecord(`API key '${id}' not found`);
  }

  /** The user and scope behind `secret`, recording its use from `ip`; undefined for an unknown key. */
  async resolve(secret: string, ip: string): Promise<ResolvedKey | undefined> {
    if (!secret) return undefined;
    const legacy = await this.users.byApiKey(secret);
    if (legacy) return { user: legacy, scope: 'full' };
    const key = await this.store.byHash(hashKey(secret));
    const user = key ? await this.users.get(key.user_id) : undefined;
    if (!key || !user) return undefined;
    await this.touch(key, ip);
    return { user, scope: key.scope, keyId: key.id };
  }

  private async touch(key: ApiKeyRecord, ip: string): Promise<void> {
    const last = key.last_used_at ? Date.parse(key.last_used_at) : 0;
    if (key.last_used_ip === ip && this.now() - last < TOUCH_EVERY_MS) return;
    // Re-read: a revoke between the lookup and this write must not bring the key back.
    if (!(await this.store.get(key.id))) return;
    await this.store.save({ ...key, last_used_at: new Date(this.now()).toISOString(), last_used_ip: ip });
  }
}
