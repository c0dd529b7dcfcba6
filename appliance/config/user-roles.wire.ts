/**
 * What a user may do (docs/console-contract.md §6): `admin` everything, `user` everything but administration,
 * `read-only` sees the library and streams and changes nothing. Here, below auth, because the config names a role
 * too (`auth.forward_default_role`); auth.wire.ts hands it on. A wire file: no imports (the console bundles it).
 */
export const USER_ROLES = ['admin', 'user', 'read-only'] as const;
export type UserRole = (typeof USER_ROLES)[number];
