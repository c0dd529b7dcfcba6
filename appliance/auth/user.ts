import type { UserJson } from './auth.wire.js';

/** A stored user. `password_hash` and `api_key` never leave the auth domain except through `toUserJson`. */
export interface UserRecord {
  id: string;
  name: string;
  email: string | null;
  provider: 'local';
  is_admin: boolean;
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
    last_login: user.last_login,
  };
  if (opts.includeApiKey) json.api_key = user.api_key;
  return json;
}
