/**
 * Wire shapes of the named API keys (docs/console-contract.md, "API keys"). A wire file: types and data only, no
 * imports (the console bundles it).
 */

/**
 * What a key may do (docs/security.md): `full` what its user may; `sabnzbd` the SABnzbd API only (the arrs);
 * `add-only` SABnzbd's addfile and addurl only (an indexer, like SABnzbd's NZB key); `metrics` GET /metrics only
 * (Prometheus); `read-only` reading (GET/HEAD and WebDAV reads) on every route its user may read.
 */
export const KEY_SCOPES = ['full', 'sabnzbd', 'add-only', 'metrics', 'read-only'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** A key as GET /api/user/api-keys lists it (never its secret). */
export interface ApiKeyJson {
  id: string;
  name: string;
  scope: KeyScope;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

/** POST /api/user/api-keys: the new key and, this once, its secret. */
export interface CreatedApiKeyJson {
  key: ApiKeyJson;
  secret: string;
}

/** POST /api/user/api-keys body. */
export interface CreateApiKeyBody {
  name: string;
  scope: KeyScope;
}
