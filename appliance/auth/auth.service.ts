import { badCredentials } from '../errors/app-error.js';
import type { Principal } from '../http/context.js';
import type { LoginInput, RegisterInput } from './auth.schemas.js';
import type { LoginRateLimiter } from './rate-limit.js';
import type { SessionService } from './session.service.js';
import type { UserRecord } from './user.js';
import type { UsersService } from './users.service.js';

export interface SignedIn {
  user: UserRecord;
  sessionId: string;
}

/** Sign-in, registration and sign-out: the rules that span users, sessions and the login limit. */
export class AuthService {
  constructor(
    readonly users: UsersService,
    readonly sessions: SessionService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  /** `client` is the caller's address: with the name, the unit of the failed-login limit (rate-limit.ts). */
  async login(input: LoginInput, client: string): Promise<SignedIn> {
    const { username, password } = input;
    const user = await this.limiter.attempt(client, username, password, () =>
      this.users.verifyCredentials(username, password),
    );
    if (!user) throw badCredentials('Invalid username or password');
    return { user: await this.users.recordLogin(user.id), sessionId: await this.sessions.create(user.id) };
  }

  /** Registers and signs the new user in. */
  async register(input: RegisterInput): Promise<SignedIn> {
    const created = await this.users.register(input);
    return { user: await this.users.recordLogin(created.id), sessionId: await this.sessions.create(created.id) };
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.sessions.end(sessionId);
  }

  /**
   * The record behind a principal. With login not required and nobody signed in, "you" are the first
   * administrator (everyone may do everything, docs/console-contract.md §1); null when no user exists yet.
   */
  async currentUser(principal: Principal): Promise<UserRecord | null> {
    if (principal.via === 'open') return (await this.users.firstAdmin()) ?? null;
    return (await this.users.get(principal.userId)) ?? null;
  }
}
