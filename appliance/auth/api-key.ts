import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyJson as NamedKeyJson, KeyScope } from './api-key.wire.js';

export { KEY_SCOPES, type KeyScope } from './api-key.wire.js';

/**
 * A named API key of one user (docs/security.md, "API keys"). Only the SHA-256 of the secret is stored: the secret
 * is shown once, at creation, and cannot be read back. `last_used_*` is when and from where it last let a call in.
 */
export interface ApiKeyRecord {
  id: string;
  user_id: string;
  name: string;
  scope: KeyScope;
  hash: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

/** The secret handed to the caller once: `spk_` and 32 random bytes in hex (the prefix tells it from a legacy key). */
export const newKeySecret = () => `spk_${randomBytes(32).toString('hex')}`;
export const newKeyId = () => `${Date.now().toString(36).padStart(9, '0')}${randomBytes(5).toString('hex')}`;

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function toApiKeyJson(key: ApiKeyRecord): NamedKeyJson {
  const { hash: _hash, user_id: _user, ...shown } = key;
  return shown;
}
