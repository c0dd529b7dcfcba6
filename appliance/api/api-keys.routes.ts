import type { AuthDomain } from '../auth/index.js';
import { toApiKeyJson } from '../auth/index.js';
import { createApiKeySchema } from '../auth/api-key.schemas.js';
import type { CreatedApiKeyJson } from '../auth/api-key.wire.js';
import { noSuchRecord } from '../errors/app-error.js';
import type { Ctx } from '../http/context.js';
import type { Router } from '../http/router.js';

/**
 * The signed-in user's named API keys (docs/console-contract.md, "API keys"; docs/security.md): list with last use,
 * create (the secret in this one answer only), revoke. A key cannot manage keys unless its scope is full.
 */
export function registerApiKeysRoutes(router: Router, { auth }: { auth: AuthDomain }): void {
  const me = async (ctx: Ctx) => {
    const user = await auth.auth.currentUser(ctx.user);
    if (!user) throw noSuchRecord('No user account exists yet');
    return user;
  };

  router.get('/api/user/api-keys', { access: 'user' }, async (ctx) =>
    (await auth.apiKeys.list((await me(ctx)).id)).map(toApiKeyJson),
  );

  router.post('/api/user/api-keys', { access: 'user' }, async (ctx): Promise<CreatedApiKeyJson> => {
    const { name, scope } = await ctx.json(createApiKeySchema);
    const { key, secret } = await auth.apiKeys.create((await me(ctx)).id, name, scope);
    return { key: toApiKeyJson(key), secret };
  });

  router.delete('/api/user/api-keys/:id', { access: 'user' }, async (ctx) => {
    await auth.apiKeys.revoke((await me(ctx)).id, ctx.params['id'] as string);
    return { message: 'API key revoked' };
  });
}
