import * as client from 'openid-client';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import type { UserRole } from './auth.wire.js';
import type { SessionService } from './session.service.js';
import type { UserRecord } from './user.js';
import type { AuthSettings, OidcSettings, UsersService } from './users.service.js';

/** The cookie that ties a sign-in's callback to the browser that started it (its value is the state). */
export const OIDC_STATE_COOKIE = 'spool_oidc';
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
/** A sign-in must come back within this (the provider's login page included). */
export const OIDC_PENDING_MS = 10 * 60 * 1000;
const MAX_PENDING = 1000;

interface Pending {
  verifier: string;
  nonce: string;
  redirectUri: string;
  startedAt: number;
}

/**
 * OpenID Connect sign-in (docs/security.md "OpenID Connect"): the authorization code flow with PKCE (S256), a state
 * and a nonce, through `openid-client`. A started sign-in is kept here (in memory, for 10 minutes) under its state;
 * the callback must bring that state in its query and in the browser's `spool_oidc` cookie, and uses it once. The
 * provider's claim `auth.oidc_role_claim` gives the role; a user with none of the mapped values is refused. Every
 * refusal is logged and signs nobody in.
 */
export class OidcSignIn {
  private discovered?: { key: string; config: Promise<client.Configuration> };
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly settings: () => AuthSettings,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The settings when OIDC is set up (an issuer and a client id), else undefined. */
  configured(): OidcSettings | undefined {
    const o = this.settings().oidc;
    return o && o.issuer !== '' && o.clientId !== '' ? o : undefined;
  }

  /**
   * Password sign-in is off only when the operator turned it off, OIDC is set up, and an administrator has signed
   * in through OIDC (so turning it off can never lock the administrators out).
   */
  async passwordLoginOff(): Promise<boolean> {
    if (this.settings().passwordLogin !== false || !this.configured()) return false;
    return this.users.oidcAdminExists();
  }

  /** Starts a sign-in: the provider's authorization URL to send the browser to, and the state for its cookie. */
  async start(origin: string): Promise<{ url: string; state: string }> {
    const oidc = this.required();
    const config = await this.configuration(oidc);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const base = (this.settings().externalBaseUrl || origin).replace(/\/+$/, '');
    const redirectUri = `${base}${OIDC_CALLBACK_PATH}`;
    this.prune();
    this.pending.set(state, { verifier, nonce, redirectUri, startedAt: this.now() });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: oidc.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /** Finishes a sign-in from the callback's query and the browser's state cookie: the user and a new session. */
  async finish(query: URLSearchParams, cookieState: string | undefined, ip: string) {
    const state = query.get('state') ?? '';
    const pending = this.pending.get(state);
    // Used once: a repeated callback finds nothing.
    this.pending.delete(state);
    if (!pending) return this.refuse('the sign-in state is unknown or was already used', ip);
    if (cookieState !== state) return this.refuse('the sign-in was started in another browser', ip);
    if (this.now() - pending.startedAt > OIDC_PENDING_MS) return this.refuse('the sign-in took too long', ip);
    const denied = query.get('error');
    if (denied) return this.refuse(`the provider answered ${query.get('error_description') ?? denied}`, ip);
    const oidc = this.required();
    const claims = await this.claimsOf(oidc, pending, query, ip);
    const user = await this.userOf(oidc, claims, ip);
    const signedIn = await this.users.recordLogin(user.id);
    this.logger.info('OIDC sign-in', { user: user.name, role: signedIn.role, ip });
    return { user: signedIn, sessionId: await this.sessions.create(user.id) };
  }

  private async claimsOf(oidc: OidcSettings, pending: Pending, query: URLSearchParams, ip: string) {
    const config = await this.configuration(oidc);
    const current = new URL(pending.redirectUri);
    current.search = query.toString();
    try {
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: query.get('state') ?? '',
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims() as Record<string, unknown> & { sub: string };
      if (claims[oidc.roleClaim] !== undefined) return claims;
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      return { ...info, ...claims };
    } catch (err) {
      // A claim that does not match (the nonce, the issuer, the audience) is named; else the library's words.
      const claim = claimOf(err);
      const why =
        typeof claim === 'string' ? `the ID token's ${claim} does not match this sign-in` : (err as Error).message;
      return this.refuse(`the provider's answer did not hold: ${why}`, ip);
    }
  }

  private async userOf(oidc: OidcSettings, claims: Record<string, unknown> & { sub: string }, ip: string) {
    const name = [claims.preferred_username, claims.email, claims.sub].find(
      (v): v is string => typeof v === 'string' && v.trim() !== '' && !/[:\p{Cc}]/u.test(v),
    );
    if (!name) return this.refuse('the provider named no usable user name', ip);
    const role = roleFromClaim(claims[oidc.roleClaim], oidc);
    if (!role) return this.refuse(`${name} has no ${oidc.roleClaim} value that maps to a Spool role`, ip);
    const email = typeof claims.email === 'string' ? claims.email : null;
    try {
      return await this.users.oidcUser(`${oidc.issuer} ${claims.sub}`, name.trim(), email, role);
    } catch (err) {
      if (err instanceof AppError) return this.refuse(err.message, ip);
      throw err;
    }
  }

  private refuse(reason: string, ip: string): never {
    this.logger.warn('OIDC sign-in refused', { reason, ip });
    throw new AppError('OIDC_REFUSED', `OpenID Connect sign-in refused: ${reason}`);
  }

  private required(): OidcSettings {
    const oidc = this.configured();
    if (!oidc)
      throw new AppError('OIDC_NOT_CONFIGURED', 'OpenID Connect is not set up (Configuration, Authentication)');
    return oidc;
  }

  /** The provider's metadata, discovered once per issuer and client (again after a failure or a change). */
  private configuration(oidc: OidcSettings): Promise<client.Configuration> {
    const key = JSON.stringify([oidc.issuer, oidc.clientId, oidc.clientSecret]);
    if (this.discovered?.key !== key) {
      const issuer = new URL(oidc.issuer);
      // http only on loopback (config/schema.ts): a test provider on this machine.
      const options = issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined;
      const config = client
        .discovery(issuer, oidc.clientId, oidc.clientSecret || undefined, undefined, options)
        .catch((err: Error) => {
          this.discovered = undefined;
          this.logger.warn('OIDC discovery failed', { issuer: oidc.issuer, error: err.message });
          throw new AppError('OIDC_REFUSED', `The OpenID Connect provider could not be reached: ${err.message}`);
        });
      this.discovered = { key, config };
    }
    return this.discovered.config;
  }

  private prune(): void {
    const cutoff = this.now() - OIDC_PENDING_MS;
    for (const [state, p] of this.pending) if (p.startedAt < cutoff) this.pending.delete(state);
    while (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
  }
}

/** The claim a failed comparison names (openid-client wraps oauth4webapi's error, whose cause names it). */
function claimOf(err: unknown): unknown {
  for (let e: unknown = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const claim = (e as { claim?: unknown }).claim;
    if (claim !== undefined) return claim;
  }
  return undefined;
}

/** The role a claim's values give: an administrator value wins, then user, then read-only; none: undefined. */
export function roleFromClaim(value: unknown, oidc: OidcSettings): UserRole | undefined {
  const values = (Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,\s]+/) : []).filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  if (values.some((v) => oidc.adminValues.includes(v))) return 'admin';
  if (values.some((v) => oidc.userValues.includes(v))) return 'user';
  if (values.some((v) => oidc.readonlyValues.includes(v))) return 'read-only';
  return undefined;
}

export type OidcSignedIn = { user: UserRecord; sessionId: string };
