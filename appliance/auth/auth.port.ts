import type { UserRecord } from './user.js';
import type { ApiKeyRecord } from './api-key.js';

/**
 * The auth domain's storage ports, with no storage types in them; LMDB implements them today (user.store.ts,
 * session.store.ts). Asynchronous, so a network store (several nodes sharing users and sessions) can implement
 * them: the request gate already awaits who the caller is (http/dispatch.ts), and WebDAV Basic checks are cached
 * in memory (basic-auth.ts). docs/architecture.md, "Storage ports".
 */

/** The users as one atomic unit of work sees them: reads see the unit's own writes. */
export interface UserTx {
  count(): number;
  get(id: string): UserRecord | undefined;
  byName(name: string): UserRecord | undefined;
  byEmail(email: string): UserRecord | undefined;
  all(): UserRecord[];
  /** Inserts or replaces, keeping the name, email and API key lookups in step. */
  save(user: UserRecord): void;
}

export interface UserStore {
  count(): Promise<number>;
  get(id: string): Promise<UserRecord | undefined>;
  /** Case-insensitive. */
  byName(name: string): Promise<UserRecord | undefined>;
  /** Case-insensitive. */
  byEmail(email: string): Promise<UserRecord | undefined>;
  byApiKey(key: string): Promise<UserRecord | undefined>;
  /** Sorted by creation (ids are time-ordered), paged. */
  list(offset: number, limit: number): Promise<UserRecord[]>;
  all(): Promise<UserRecord[]>;
  /**
   * Runs `work` as one atomic unit (checks and writes cannot interleave with another's: two first registrations
   * cannot both become admin). `work` is synchronous and may run again if the store retries; users are few, so a
   * network store hands it the whole set read under a lock and writes back what it saved.
   */
  atomically<T>(work: (tx: UserTx) => T): Promise<T>;
}

export interface SessionRecord {
  user_id: string;
  created_at: number;
  /** Epoch ms; moved forward on use (sliding expiry). */
  expires_at: number;
}

/** Sessions by their id (a store keeps only a hash of it: a copy of the store hands out no live cookie). */
export interface SessionStore {
  get(id: string): Promise<SessionRecord | undefined>;
  put(id: string, record: SessionRecord): Promise<void>;
  remove(id: string): Promise<void>;
  /** Removes every session of one user; resolves to how many. */
  removeForUser(userId: string): Promise<number>;
  /** Deletes sessions expired at `now`; resolves to how many. */
  purgeExpired(now: number): Promise<number>;
  count(): Promise<number>;
}

/** Named API keys (api-key.ts), found by the hash of their secret; the secret itself is never stored. */
export interface ApiKeyStore {
  byHash(hash: string): Promise<ApiKeyRecord | undefined>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  /** One user's keys, oldest first. */
  forUser(userId: string): Promise<ApiKeyRecord[]>;
  all(): Promise<ApiKeyRecord[]>;
  /** Inserts or replaces. */
  save(key: ApiKeyRecord): Promise<void>;
  /** Resolves to whether it was there. */
  remove(id: string): Promise<boolean>;
}
