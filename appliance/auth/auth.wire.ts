/**
 * Wire shapes of the auth and user API (docs/console-contract.md: User, auth config, registration status). A wire
 * file: types only, no imports from Node or packages (the console bundles it).
 */

import type { UserRole } from '../config/user-roles.wire.js';

/** What a user may do: admin, user or read-only (config/user-roles.wire.ts, where the config reads it too). */
export { USER_ROLES, type UserRole } from '../config/user-roles.wire.js';

/** A user as the API shows it. `api_key` only in the caller's own record. `is_admin` is `role === 'admin'`. */
export interface UserJson {
  id: string;
  name: string;
  email: string | null;
  provider: 'local' | 'oidc';
  is_admin: boolean;
  role: UserRole;
  last_login: string | null;
  api_key?: string;
}

/** GET /api/auth/config. */
export interface AuthConfigJson {
  login_required: boolean;
  /** Whether the sign-in page offers name and password (docs/security.md "OpenID Connect"). */
  password_login: boolean;
  /** The OpenID Connect button's label, or null when OIDC is not set up. */
  oidc: { name: string } | null;
}

/** GET /api/auth/registration-status. */
export interface RegistrationStatus {
  registration_enabled: boolean;
  user_count: number;
}

/** POST /api/auth/login and /api/auth/register. */
export interface SignedInJson {
  user: UserJson;
}

/** POST /api/auth/register: what the console sends (auth.schemas.ts holds the rules). */
export interface RegisterBody {
  username: string;
  email?: string | null;
  password: string;
}

/** POST /api/user/api-key/regenerate. */
export interface ApiKeyJson {
  api_key: string;
}
