import type { AuthDomain } from '../auth/index.js';
import { toUserJson } from '../auth/index.js';
import { loginSchema, registerSchema } from '../auth/auth.schemas.js';
import type { AuthConfigJson, SignedInJson } from '../auth/auth.wire.js';
import type { Router } from '../http/router.js';
import type { Ctx } from '../http/context.js';
import { publicHost } from '../http/dispatch.js';
import { AppError } from '../errors/app-error.js';
import { OIDC_CALLBACK_PATH, OIDC_STATE_COOKIE } from '../auth/index.js';
import { OIDC_PENDING_MS } from '../auth/oidc.js';
import { cameOverHttps, setSessionCookie } from '../auth/session-cookie.js';

/** docs/console-contract.md §7 "Auth and users", the anonymous half: auth config, registration status, login, register. */
export function registerAuthRoutes(router: Router, { auth }: { auth: AuthDomain }): void {
  const open = { access: 'public' } as const;

  router.get('/api/auth/config', open, async (): Promise<AuthConfigJson> => ({
    login_required: auth.gatekeeper.loginRequired(),
    password_login: !(await auth.oidc.passwordLoginOff()),
    oidc: auth.oidc.configured() ? { name: auth.oidc.configured()!.displayName } : null,
  }));

  router.get('/api/auth/registration-status', open, () => auth.users.registrationStatus());

  router.post('/api/auth/login', open, async (ctx) => {
    if (await auth.oidc.passwordLoginOff())
      throw new AppError('PASSWORD_LOGIN_OFF', 'Password sign-in is turned off: sign in with OpenID Connect');
    const signedIn = await auth.auth.login(await ctx.json(loginSchema), ctx.req.ip);
    setSessionCookie(ctx, signedIn.sessionId, auth.sessions.ttlSeconds);
    return { user: toUserJson(signedIn.user, { includeApiKey: true }) } satisfies SignedInJson;
  });

  router.post('/api/auth/register', open, async (ctx) => {
    const signedIn = await auth.auth.register(await ctx.json(registerSchema));
    setSessionCookie(ctx, signedIn.sessionId, auth.sessions.ttlSeconds);
    return { user: toUserJson(signedIn.user, { includeApiKey: true }) } satisfies SignedInJson;
  });

  registerOidcRoutes(router, auth);
}

/**
 * OpenID Connect (docs/security.md "OpenID Connect"): `login` sends the browser to the provider with PKCE, a state
 * (also in the `spool_oidc` cookie) and a nonce; `callback` checks them, signs the user in with a session as the
 * password does, and sends the browser to the console, or to the sign-in page with the reason.
 */
function registerOidcRoutes(router: Router, auth: AuthDomain): void {
  const open = { access: 'public' } as const;
  const stateCookie = (ctx: Ctx, value: string, maxAgeSeconds: number) =>
    ctx.reply.cookie(OIDC_STATE_COOKIE, value, {
      path: '/api/auth/oidc',
      maxAgeSeconds,
      httpOnly: true,
      sameSite: 'Lax',
      secure: cameOverHttps(ctx.req),
    });
  const redirect = (ctx: Ctx, location: string) => ctx.reply.status(302).header('Location', location).send('');

  router.get('/api/auth/oidc/login', open, async (ctx) => {
    const origin = `${cameOverHttps(ctx.req) ? 'https' : 'http'}://${publicHost(ctx.req) ?? 'localhost'}`;
    const started = await auth.oidc.start(origin);
    stateCookie(ctx, started.state, OIDC_PENDING_MS / 1000);
    redirect(ctx, started.url);
  });

  router.get(OIDC_CALLBACK_PATH, open, async (ctx) => {
    stateCookie(ctx, '', 0);
    try {
      const signedIn = await auth.oidc.finish(ctx.query, ctx.req.cookie(OIDC_STATE_COOKIE), ctx.req.ip);
      setSessionCookie(ctx, signedIn.sessionId, auth.sessions.ttlSeconds);
      redirect(ctx, '/');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      redirect(ctx, `/login?${new URLSearchParams({ oidc_error: err.message })}`);
    }
  });
}
