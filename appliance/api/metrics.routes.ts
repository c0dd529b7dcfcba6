import type { AuthDomain } from '../auth/index.js';
import type { ConfigService } from '../config/index.js';
import { AppError } from '../errors/app-error.js';
import type { Ctx } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { SpoolMetrics } from '../metrics/index.js';

export interface MetricsRouteDeps {
  metrics: SpoolMetrics;
  config: ConfigService;
  auth: AuthDomain;
}

/**
 * GET /metrics: the Prometheus exposition (docs/metrics.md). Registered public because it checks its own access:
 * a caller the gatekeeper knows (X-Api-Key, `apikey` query, Basic, session; everyone while `auth.login_required`
 * is false, as for every route), an API key as a Bearer token (Prometheus's `authorization: credentials`), or
 * anyone when `metrics.open` is true. A wrong key is a 401, like a missing one.
 */
export function registerMetricsRoutes(router: Router, deps: MetricsRouteDeps): void {
  router.get('/metrics', { access: 'public' }, async (ctx) => {
    if (!(await allowed(ctx, deps))) throw new AppError('AUTH_REQUIRED', 'An API key is required to read /metrics');
    const text = await deps.metrics.scrape();
    ctx.reply.header('Cache-Control', 'no-store').send(text, deps.metrics.contentType, ctx.req.method === 'HEAD');
  });
}

async function allowed(ctx: Ctx, { config, auth }: MetricsRouteDeps): Promise<boolean> {
  if (config.get().metrics.open || ctx.principal) return true;
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(ctx.req.header('authorization') ?? '')?.[1];
  if (bearer === undefined) return false;
  const found = await auth.apiKeys.resolve(bearer, ctx.req.ip);
  // Bearer keys skip the gatekeeper: their scope is checked here (what /metrics allows: full, metrics, read-only).
  if (found && (found.scope === 'sabnzbd' || found.scope === 'add-only'))
    throw new AppError('KEY_SCOPE_REFUSED', `This API key has scope ${found.scope}: it cannot read /metrics`);
  return found !== undefined;
}
