import type { Ctx } from '../http/context.js';
import type { Router } from '../http/router.js';
import { STREAM_LINK_PREFIX, type StreamLinkService } from '../streamlinks/index.js';
import { decodeUrlPath } from '../vfs/path.js';
import { handleGet } from './get.handler.js';
import { davStatus, type WebdavDeps } from './webdav.types.js';

const ALLOW = 'OPTIONS, GET, HEAD';

/**
 * Stream links at /stream/<token>/<name>: public to the dispatcher, the signed token is the credential. They only
 * read (GET, HEAD with ranges, as /webdav serves them); every refusal is a 401 with the reason in plain words, and
 * is checked on every request, so a link revoked mid-play fails on the player's next range request.
 */
export function registerStreamLinks(router: Router, links: StreamLinkService, deps: WebdavDeps): void {
  router.add('*', `${STREAM_LINK_PREFIX}/*`, { access: 'public' }, (ctx) => serve(ctx, links, deps));
}

const REASONS = {
  malformed: 'This is not a Spool stream link',
  unknown: 'This stream link was revoked or never existed',
  tampered: 'This stream link is not signed by this Spool (tampered, or the signing secret was rotated)',
  expired: 'This stream link has expired',
  outside: 'This stream link does not open that file',
} as const;

async function serve(ctx: Ctx, links: StreamLinkService, deps: WebdavDeps): Promise<void> {
  const method = ctx.req.method;
  if (method === 'OPTIONS') return davStatus(ctx, 200, '', { Allow: ALLOW });
  if (method !== 'GET' && method !== 'HEAD')
    return davStatus(ctx, 405, 'Stream links only read (GET, HEAD)', { Allow: ALLOW });
  const rest = ctx.req.rawPath.slice(STREAM_LINK_PREFIX.length + 1);
  const slash = rest.indexOf('/');
  const token = slash < 0 ? rest : rest.slice(0, slash);
  let tail: string;
  try {
    tail = decodeUrlPath(slash < 0 ? '' : rest.slice(slash));
  } catch {
    tail = '';
  }
  const checked = await links.check(token, tail);
  if (!checked.ok) return davStatus(ctx, 401, REASONS[checked.reason]);
  try {
    if (deps.vfs.requireNode(checked.path).type === 'directory')
      return davStatus(ctx, 404, 'A stream link opens files, not folders');
    await handleGet({ ctx, deps, path: checked.path, prefix: STREAM_LINK_PREFIX });
  } catch (err) {
    if (ctx.reply.sent || ctx.reply.aborted) return ctx.reply.close();
    const status = (err as { status?: number }).status;
    if (status === 404) return davStatus(ctx, 404, 'The file this link opens is no longer in the library');
    deps.logger.warn('stream link read failed', { link: checked.link.id, error: String(err) });
    davStatus(ctx, 502, 'The file could not be read; see the log');
  }
}
