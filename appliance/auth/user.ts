import type { UserJson, UserRole } from './auth.wire.js';

/** A stored user. `password_hash` and `api_key` never leave the auth domain except through `toUserJson`. */
export interface UserRecord {
  id: string;
  name: string;
  email: string | null;
  /** How the user signs in: `local` (password, forward auth), `oidc` (OpenID Connect). */
  provider: 'local' | 'oidc';
  /** An OIDC user's issuer and subject (`<issuer> <sub>`): who the provider says it is, whatever its name. */
  oidc_subject?: string;
  is_admin: boolean;
  /**
   * The role (docs/console-contract.md §6). Absent on records from before roles: then `is_admin` decides
   * (admin or user). Kept in step with `is_admin` by `withRole`.
   */
  role?: UserRole;
  last_login: string | null;
  created_at: string;
  api_key: string;
  password_hash: string;
}

export function toUserJson(user: UserRecord, opts: { includeApiKey?: boolean } = {}): UserJson {
  const json: UserJson = {
    id: user.id,
    name: user.name,
    email: user.email,
    provider: user.provider,
    is_admin: user.is_admin,
    role: roleOf(user),
    last_login: user.last_login,
  };
  if (opts.includeApiKey) json.api_key = user.api_key;
  return json;
}

/** A user's role: the stored one, or for a record from before roles, admin or user by its flag. */
export function roleOf(user: Pick<UserRecord, 'role' | 'is_admin'>): UserRole {
  return user.role ?? (user.is_admin ? 'admin' : 'user');
}

/** The user with `role`, its `is_admin` flag (the specification's field) in step. */
export function withRole<T extends UserRecord>(user: T, role: UserRole): T {
  return { ...user, role, is_admin: role === 'admin' };
}
