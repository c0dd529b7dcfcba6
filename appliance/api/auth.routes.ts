import type { AuthDomain } from '../auth/index.js';
import { toUserJson } from '../auth/index.js';
import { loginSchema, registerSchema } from '../auth/auth.schemas.js';
import { setSessionCookie } from '../auth/session-cookie.js';
import type { AuthConfigJson, SignedInJson } from '../auth/auth.wire.js';
import type { Router } from '../http/router.js';

/** docs/console-contract.md §7 "Auth and users", the anonymous half: auth config, registration status, login, register. */
export function registerAuthRoutes(router: Router, { auth }: { auth: AuthDomain }): void {
  const open = { access: 'public' } as const;

  router.get('/api/auth/config', open, (): AuthConfigJson => ({ login_required: auth.gatekeeper.loginRequired() }));

  router.get('/api/auth/registration-status', open, () => auth.users.registrationStatus());

  router.post('/api/auth/login', open, async (ctx) => {
    const signedIn = await auth.auth.login(await ctx.json(loginSchema), ctx.req.ip);
    setSessionCookie(ctx, signedIn.sessionId, auth.sessions.ttlSeconds);
    return { user: toUserJson(signedIn.user, { includeApiKey: true }) } satisfies SignedInJson;
  });

  router.post('/api/auth/register', open, async (ctx) => {
    const signedIn = await auth.auth.register(await ctx.json(registerSchema));
    setSessionCookie(ctx, signedIn.sessionId, auth.sessions.ttlSeconds);
    return { user: toUserJson(signedIn.user, { includeApiKey: true }) } satisfies SignedInJson;
  });
}
