import { roleOf, sabModeRefusal, type AuthDomain, type KeyScope } from '../auth/index.js';
import type { ConfigService } from '../config/index.js';
import { AppError } from '../errors/app-error.js';
import type { Ctx } from '../http/context.js';
import type { Router } from '../http/router.js';
import { UPLOAD_BODY_LIMIT } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';
import { SAB_MODES, type SabMode } from './sabnzbd.modes.js';
import { toSabXml, type SabnzbdService, type SabParams } from '../sabnzbd/index.js';

export interface SabnzbdRouteDeps {
  sab: SabnzbdService;
  config: ConfigService;
  auth: AuthDomain;
  logger: Logger;
}

/** Small urlencoded POST bodies (some clients post parameters instead of putting them in the query). */
const FORM_LIMIT = 64 * 1024;

/**
 * The SABnzbd-compatible API at `/sabnzbd/api` (URL base `/sabnzbd` in Radarr/Sonarr) and, like SABnzbd itself,
 * at `/api` when a `mode` is given. One gate for every mode: the API must be enabled, the caller must hold a key
 * (unless the mode is anonymous), and every reply is SABnzbd's envelope on HTTP 200, failures as
 * `{status: false, error}`, the form the arrs turn into a readable message (docs/sabnzbd.md).
 */
export function registerSabnzbdRoutes(router: Router, deps: SabnzbdRouteDeps): void {
  const handler = (ctx: Ctx) => gate(ctx, deps);
  const options = { access: 'public' as const, bodyLimit: UPLOAD_BODY_LIMIT };
  router.add(['GET', 'POST'], '/sabnzbd/api', options, handler);
  router.add(['GET', 'POST'], '/api', options, handler);
}

async function gate(ctx: Ctx, deps: SabnzbdRouteDeps): Promise<void> {
  const params = await paramsOf(ctx);
  const mode = SAB_MODES[params.get('mode') ?? ''];
  const body = await answer(ctx, deps, params, mode).catch((err: unknown) => {
    if (err instanceof AppError) return { status: false, error: err.message };
    deps.logger.error('SABnzbd API call failed', { mode: params.get('mode'), error: String(err) });
    return { status: false, error: `Internal error (request ${ctx.req.requestId})` };
  });
  ctx.reply.header('Pragma', 'no-cache');
  // SABnzbd's wildcard CORS, kept for answers that only read (the key is still required to get them); an answer
  // to a call that changes something never invites another origin's page to read it.
  if (mode && !mode.changes?.(params)) ctx.reply.header('Access-Control-Allow-Origin', '*');
  if (params.get('output') === 'xml' && !mode?.jsonOnly) {
    ctx.reply.status(200).send(toSabXml(body as Record<string, unknown>), 'text/xml; charset=UTF-8');
  } else {
    ctx.reply.status(200).send(JSON.stringify(body), 'application/json;charset=UTF-8');
  }
}

async function answer(ctx: Ctx, deps: SabnzbdRouteDeps, params: SabParams, mode: SabMode | undefined) {
  if (!deps.config.get().sabnzbd.enabled) {
    return { status: false, error: 'The SABnzbd API is disabled in Spool (Configuration, SABnzbd API)' };
  }
  if (!mode) return { status: false, error: 'not implemented' };
  if (!mode.anonymous) {
    const refused = await refusal(ctx, deps, params, mode);
    if (refused) return { status: false, error: refused };
  }
  return mode.run({
    params,
    ctx,
    sab: deps.sab,
    isApiKey: async (key) => (await deps.auth.apiKeys.resolve(key.trim(), ctx.req.ip)) !== undefined,
  });
}

/**
 * The arrs' Test looks for exactly `API Key Required` / `API Key Incorrect` in the message. Only what the request
 * itself names counts: a user's API key (`apikey` in the query or form, or `X-Api-Key`), or SABnzbd's older
 * ma_username/ma_password, checked like HTTP Basic (same rate limit). Never what a browser adds by itself (the
 * console's cookie, remembered Basic credentials), and not `auth.login_required: false` either: SABnzbd changes
 * things through GET, so any page could otherwise make a browser delete the library (docs/sabnzbd.md, "Auth").
 */
async function refusal(ctx: Ctx, deps: SabnzbdRouteDeps, params: SabParams, mode: SabMode): Promise<string | null> {
  const principal = ctx.principal;
  if (principal?.via === 'api_key') {
    return scopeRefusal(ctx, deps, params, mode, principal.keyScope ?? 'full', principal.readOnly === true);
  }
  const key = params.get('apikey') ?? ctx.req.header('x-api-key');
  if (key !== undefined) {
    const found = await deps.auth.apiKeys.resolve(key.trim(), ctx.req.ip);
    if (!found) return 'API Key Incorrect';
    return scopeRefusal(ctx, deps, params, mode, found.scope, roleOf(found.user) === 'read-only');
  }
  const user = params.get('ma_username');
  const password = params.get('ma_password');
  if (user && password !== undefined) {
    const header = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const signedIn = await deps.auth.basic.verify(header, ctx.req.ip, false);
    if (signedIn) return scopeRefusal(ctx, deps, params, mode, 'full', signedIn.readOnly === true);
    return 'API Key Incorrect';
  }
  return 'API Key Required';
}

/**
 * A named key's scope against this mode (an add-only key adds NZBs only), and a read-only user's changes (refused
 * whatever the key); a refusal is logged.
 */
function scopeRefusal(
  ctx: Ctx,
  deps: SabnzbdRouteDeps,
  params: SabParams,
  mode: SabMode,
  scope: KeyScope,
  readOnlyUser: boolean,
) {
  const name = params.get('mode') ?? '';
  const changes = mode.changes?.(params) ?? false;
  const refused =
    sabModeRefusal(scope, name, changes) ??
    (readOnlyUser && changes ? 'This user is read-only: it changes nothing' : null);
  if (refused) deps.logger.warn('API key refused outside its scope', { scope, mode: name, ip: ctx.req.ip });
  return refused;
}

/** The query, then the fields of an urlencoded POST body (multipart bodies are addfile's to read). */
async function paramsOf(ctx: Ctx): Promise<SabParams> {
  const query = ctx.query;
  const type = ctx.req.header('content-type') ?? '';
  let form: URLSearchParams | undefined;
  if (ctx.req.method === 'POST' && /^application\/x-www-form-urlencoded/i.test(type)) {
    form = new URLSearchParams((await ctx.body(FORM_LIMIT)).toString('utf8'));
  }
  return { get: (name) => query.get(name) ?? form?.get(name) ?? undefined };
}
