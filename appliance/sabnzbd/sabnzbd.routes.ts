import type { ConfigService } from '../config/index.js';
import { AppError } from '../errors/app-error.js';
import type { Ctx } from '../http/context.js';
import type { Router } from '../http/router.js';
import { readNzbUpload, UPLOAD_BODY_LIMIT, type ImporterDomain } from '../importer/index.js';
import { parseCategory, parsePriority } from '../importer/request-parsing.js';

/**
 * The SABnzbd-compatible API at /sabnzbd/api, for now only `mode=addfile` (the full API is a later issue).
 * SABnzbd speaks its own envelope: `{status: true, nzo_ids: [...]}` or HTTP 200 with `{status: false, error}`
 * (the form Sonarr/Radarr turn into a readable message).
 */
export function registerSabnzbdRoutes(router: Router, deps: { importer: ImporterDomain; config: ConfigService }): void {
  const handler = async (ctx: Ctx) => {
    const answer = await respond(ctx, deps).catch((err: unknown) => {
      if (err instanceof AppError && err.status < 500) return { status: false, error: err.message };
      throw err;
    });
    ctx.reply.json(200, answer);
  };
  router.add(['GET', 'POST'], '/sabnzbd/api', { access: 'public', bodyLimit: UPLOAD_BODY_LIMIT }, handler);
}

async function respond(ctx: Ctx, deps: { importer: ImporterDomain; config: ConfigService }): Promise<object> {
  if (!deps.config.get().sabnzbd.enabled) return { status: false, error: 'The SABnzbd API is disabled in Spool' };
  if (!ctx.principal) {
    const sent = ctx.query.get('apikey') ?? ctx.req.header('x-api-key');
    return { status: false, error: sent ? 'API Key Incorrect' : 'API Key Required' };
  }
  const mode = ctx.query.get('mode') ?? '';
  if (mode !== 'addfile') return { status: false, error: `mode=${mode || '(none)'} is not supported yet` };
  if (ctx.req.method !== 'POST')
    return { status: false, error: 'addfile needs a POST with the NZB as multipart/form-data' };
  // SABnzbd takes the file from field `name` or `nzbfile`, and cat/priority from the query or the form.
  const upload = await readNzbUpload(ctx.req, ['name', 'nzbfile']);
  const field = (key: string) => ctx.query.get(key) ?? upload.fields[key];
  const item = await deps.importer.queue.enqueue({
    nzb: upload.bytes,
    nzbPath: field('nzbname') ? `${field('nzbname')}.nzb` : upload.filename,
    category: parseCategory(field('cat') ?? field('category')),
    priority: parsePriority(field('priority')),
  });
  return { status: true, nzo_ids: [String(item.id)] };
}
