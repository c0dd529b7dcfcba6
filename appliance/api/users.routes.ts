import { z } from 'zod';
import type { AuthDomain } from '../auth/index.js';
import { SESSION_COOKIE, toUserJson } from '../auth/index.js';
import { setAdminSchema, setRoleSchema } from '../auth/auth.schemas.js';
import type { ApiKeyJson } from '../auth/auth.wire.js';
import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import type { Ctx } from '../http/context.js';
import { Page } from '../http/envelope.js';
import { noSuchRecord } from '../errors/app-error.js';
import { validationFailed } from '../errors/field-errors.js';
import type { Router } from '../http/router.js';
import { zodToFieldErrors } from '../errors/field-errors.js';

// Not strict: other query parameters (apikey, cache busters) ride along on every route.
const pageQuery = z.object({
  // limit=0 means "all" (docs/console-contract.md §7).
  limit: z.coerce.number().int('limit must be a whole number').min(0, 'limit must be 0 or more').max(1000).default(50),
  offset: z.coerce.number().int('offset must be a whole number').min(0, 'offset must be 0 or more').default(0),
});

/** docs/console-contract.md §7 "Auth and users": the signed-in user, logout, API key, and the admin's user list. */
export function registerUsersRoutes(router: Router, { auth }: { auth: AuthDomain }): void {
  const me = async (ctx: Ctx) => {
    const user = await auth.auth.currentUser(ctx.user);
    if (!user) throw noSuchRecord('No user account exists yet');
    return user;
  };

  router.get('/api/user', { access: 'user' }, async (ctx) => toUserJson(await me(ctx), { includeApiKey: true }));

  router.post('/api/user/refresh', { access: 'user', changes: false }, async (ctx) => {
    const user = await me(ctx);
    // Slide the browser's cookie along with the server-side expiry.
    if (ctx.user.sessionId) setSessionCookie(ctx, ctx.user.sessionId, auth.sessions.ttlSeconds);
    return toUserJson(user, { includeApiKey: true });
  });

  // Public: logging out must work even when the session already expired, and always clears the cookie.
  router.post('/api/user/logout', { access: 'public' }, async (ctx) => {
    await auth.auth.logout(ctx.req.cookie(SESSION_COOKIE));
    clearSessionCookie(ctx);
    return { message: 'Logged out' };
  });

  router.post('/api/user/api-key/regenerate', { access: 'user' }, async (ctx): Promise<ApiKeyJson> => ({
    api_key: (await auth.users.regenerateApiKey((await me(ctx)).id)).api_key,
  }));

  router.get('/api/users', { access: 'admin' }, async (ctx) => {
    const parsed = pageQuery.safeParse(Object.fromEntries(ctx.query));
    if (!parsed.success) throw validationFailed(zodToFieldErrors(parsed.error));
    const { limit, offset } = parsed.data;
    const { items, total } = await auth.users.list(offset, limit === 0 ? Number.MAX_SAFE_INTEGER : limit);
    return new Page(
      items.map((u) => toUserJson(u)),
      { total, limit, offset },
    );
  });

  router.put('/api/users/:id/admin', { access: 'admin' }, async (ctx) => {
    const { is_admin } = await ctx.json(setAdminSchema);
    return toUserJson(await auth.users.setAdmin(ctx.params['id'] as string, is_admin));
  });

  router.put('/api/users/:id/role', { access: 'admin' }, async (ctx) => {
    const { role } = await ctx.json(setRoleSchema);
    return toUserJson(await auth.users.setRole(ctx.params['id'] as string, role));
  });
}
