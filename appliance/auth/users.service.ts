import { randomBytes } from 'node:crypto';
import { AppError, alreadyExists, noSuchRecord } from '../errors/app-error.js';
import type { RegisterInput } from './auth.schemas.js';
import type { RegistrationStatus, UserRole } from './auth.wire.js';
import { decoyHash, hashPassword, verifyPassword } from './password.js';
import { roleOf, withRole, type UserRecord } from './user.js';
import type { UserStore } from './auth.port.js';

/** The live auth settings (read from config on every call, so a change applies at once). */
export interface AuthSettings {
  loginRequired: boolean;
  registrationEnabled: boolean;
  /** webdav.user / webdav.password: extra Basic credentials accepted on /webdav only. */
  webdavUser: string;
  webdavPassword: string;
  /** auth.forward_user_header / forward_groups_header / forward_admin_groups (forward-auth.ts); '' = off. */
  forwardUserHeader?: string;
  forwardGroupsHeader?: string;
  forwardAdminGroups?: readonly string[];
  /** auth.forward_readonly_groups: groups whose members only read; auth.forward_default_role: a new user's role. */
  forwardReadonlyGroups?: readonly string[];
  forwardDefaultRole?: UserRole;
  /** auth.password_login: the sign-in page's name and password (kept on until OIDC works: oidc.ts). */
  passwordLogin?: boolean;
  /** auth.oidc_*; undefined or an empty issuer: OIDC off. */
  oidc?: OidcSettings;
  /** The URL Spool is reached at from outside (import.strm_base_url); '' = the request's own origin. */
  externalBaseUrl?: string;
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  roleClaim: string;
  adminValues: readonly string[];
  userValues: readonly string[];
  readonlyValues: readonly string[];
  displayName: string;
}

/** The password hash of a user made by forward auth or OIDC: not a hash, so no password ever matches (password.ts). */
const FORWARDED_ONLY = 'forward-auth';

export const newApiKey = () => randomBytes(16).toString('hex');
/** Time-ordered ids: listing users in key order lists them by creation. */
const newUserId = () => `${Date.now().toString(36).padStart(9, '0')}${randomBytes(5).toString('hex')}`;

/** Users and their rules: first user is admin, registration gate, unique names, the last admin stays. */
export class UsersService {
  constructor(
    private readonly repo: UserStore,
    private readonly settings: () => AuthSettings,
  ) {}

  count(): Promise<number> {
    return this.repo.count();
  }

  /** Registration is open while nobody exists, afterwards only if an admin enabled it. */
  async registrationStatus(): Promise<RegistrationStatus> {
    const count = await this.repo.count();
    return { registration_enabled: count === 0 || this.settings().registrationEnabled, user_count: count };
  }

  async register(input: RegisterInput): Promise<UserRecord> {
    if (!(await this.registrationStatus()).registration_enabled) {
      throw new AppError('REGISTRATION_CLOSED', 'Registration is closed. Ask an administrator to enable it.');
    }
    const passwordHash = await hashPassword(input.password);
    // Check and insert in one transaction: two simultaneous first registrations cannot both become admin.
    return this.repo.atomically((tx) => {
      const count = tx.count();
      if (count > 0 && !this.settings().registrationEnabled) {
        throw new AppError('REGISTRATION_CLOSED', 'Registration is closed. Ask an administrator to enable it.');
      }
      if (tx.byName(input.username) || tx.byEmail(input.username)) {
        throw alreadyExists(`Username '${input.username}' is already taken`);
      }
      if (input.email && (tx.byEmail(input.email) || tx.byName(input.email))) {
        throw alreadyExists(`Email '${input.email}' is already registered`);
      }
      const user: UserRecord = {
        id: newUserId(),
        name: input.username,
        email: input.email,
        provider: 'local',
        is_admin: count === 0,
        role: count === 0 ? 'admin' : 'user',
        last_login: null,
        created_at: new Date().toISOString(),
        api_key: newApiKey(),
        password_hash: passwordHash,
      };
      tx.save(user);
      return user;
    });
  }

  /** The user whose name or email and password match, or null. Unknown names cost as much time as known ones. */
  async verifyCredentials(login: string, password: string): Promise<UserRecord | null> {
    const user = (await this.repo.byName(login)) ?? (await this.repo.byEmail(login));
    if (!user) {
      await verifyPassword(password, await decoyHash());
      return null;
    }
    return (await verifyPassword(password, user.password_hash)) ? user : null;
  }

  /**
   * The user a trusted proxy signed in (forward-auth.ts): created on first sight with `role.initial` (no
   * password: it can only come in through the proxy or a key); `role.mapped`, from the groups the proxy sends,
   * replaces the role on every request that carries them.
   */
  forwardedUser(name: string, role: { mapped?: UserRole; initial: UserRole }): Promise<UserRecord> {
    return this.repo.atomically((tx) => {
      const known = tx.byName(name);
      if (known && (role.mapped === undefined || roleOf(known) === role.mapped)) return known;
      const user: UserRecord = known
        ? withRole(known, role.mapped as UserRole)
        : withRole(
            {
              id: newUserId(),
              name,
              email: null,
              provider: 'local',
              is_admin: false,
              last_login: null,
              created_at: new Date().toISOString(),
              api_key: newApiKey(),
              password_hash: FORWARDED_ONLY,
            },
            role.mapped ?? role.initial,
          );
      tx.save(user);
      return user;
    });
  }

  /**
   * The user an OpenID Connect provider signed in (oidc.ts), found by issuer and subject, created on first sight
   * with `role`; its role and email follow the provider's claims at every sign-in. A local user already holding the
   * name is never taken over: the sign-in is refused.
   */
  oidcUser(subject: string, name: string, email: string | null, role: UserRole): Promise<UserRecord> {
    return this.repo.atomically((tx) => {
      const known = tx.all().find((u) => u.oidc_subject === subject);
      if (known && roleOf(known) === role && known.email === email) return known;
      if (!known && tx.byName(name)) {
        throw new AppError(
          'OIDC_REFUSED',
          `A user named '${name}' already exists here and did not sign in through OIDC`,
        );
      }
      const emailFree = email !== null && !tx.byEmail(email);
      const user: UserRecord = withRole(
        known
          ? { ...known, email: emailFree || known.email === email ? email : known.email }
          : {
              id: newUserId(),
              name,
              email: emailFree ? email : null,
              provider: 'oidc',
              oidc_subject: subject,
              is_admin: false,
              last_login: null,
              created_at: new Date().toISOString(),
              api_key: newApiKey(),
              password_hash: FORWARDED_ONLY,
            },
        role,
      );
      tx.save(user);
      return user;
    });
  }

  /** Whether an administrator has signed in through OIDC: only then may password sign-in be off (oidc.ts). */
  async oidcAdminExists(): Promise<boolean> {
    return (await this.repo.all()).some((u) => u.provider === 'oidc' && u.is_admin);
  }

  recordLogin(id: string): Promise<UserRecord> {
    return this.update(id, (u) => ({ ...u, last_login: new Date().toISOString() }));
  }

  get(id: string): Promise<UserRecord | undefined> {
    return this.repo.get(id);
  }

  async byApiKey(key: string): Promise<UserRecord | undefined> {
    return key ? this.repo.byApiKey(key) : undefined;
  }

  /** The oldest administrator: who "you" are when login is not required. */
  async firstAdmin(): Promise<UserRecord | undefined> {
    return (await this.repo.all()).find((u) => u.is_admin);
  }

  async list(offset: number, limit: number): Promise<{ items: UserRecord[]; total: number }> {
    return { items: await this.repo.list(offset, limit), total: await this.repo.count() };
  }

  /** Grants admin, or takes it back (the user becomes an ordinary user; a read-only user stays read-only). */
  setAdmin(id: string, isAdmin: boolean): Promise<UserRecord> {
    return this.setRole(id, (current) => (isAdmin ? 'admin' : current === 'admin' ? 'user' : current));
  }

  /** Sets a user's role (docs/console-contract.md §6); the last administrator keeps theirs. */
  setRole(id: string, role: UserRole | ((current: UserRole) => UserRole)): Promise<UserRecord> {
    return this.repo.atomically((tx) => {
      const user = tx.get(id);
      if (!user) throw noSuchRecord(`User '${id}' not found`);
      const next = typeof role === 'function' ? role(roleOf(user)) : role;
      if (user.is_admin && next !== 'admin' && tx.all().filter((u) => u.is_admin).length === 1) {
        throw new AppError(
          'LAST_ADMIN',
          'Cannot remove admin rights from the last administrator. Make another user admin first.',
        );
      }
      const saved = withRole(user, next);
      tx.save(saved);
      return saved;
    });
  }

  regenerateApiKey(id: string): Promise<UserRecord> {
    return this.update(id, (u) => ({ ...u, api_key: newApiKey() }));
  }

  private update(id: string, change: (u: UserRecord) => UserRecord): Promise<UserRecord> {
    return this.repo.atomically((tx) => {
      const user = tx.get(id);
      if (!user) throw noSuchRecord(`User '${id}' not found`);
      const next = change(user);
      tx.save(next);
      return next;
    });
  }
}
