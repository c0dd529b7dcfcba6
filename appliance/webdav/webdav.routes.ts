import type { Ctx } from '../http/context.js';
import { WEBDAV_PRINCIPAL_ID } from '../auth/index.js';
import { AppError } from '../errors/app-error.js';
import { diskFullError } from '../errors/disk-full.js';
import type { Router } from '../http/router.js';
import { decodeUrlPath } from '../vfs/path.js';
import { VfsReadError } from '../vfs/reader.js';
import { handleGet } from './get.handler.js';
import { handleLock, handleUnlock } from './lock.handlers.js';
import { handlePropfind, handleProppatch } from './props.handler.js';
import { davStatus, type DavRequest, type WebdavDeps } from './webdav.types.js';
import { DavError, checkIfHeader } from './write.guard.js';
import { handleCopyMove, handleDelete, handleMkcol, handlePut } from './write.handlers.js';

export const WEBDAV_PREFIX = '/webdav';
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';
/** What the read-only `webdav.user` pair may do: media players list and read; changes need a console user. */
const READ_METHODS = new Set(['OPTIONS', 'GET', 'HEAD', 'PROPFIND']);

/**
 * WebDAV at /webdav, served by our own handlers (see docs/streaming.md for why webdav-server is not used).
 * The route is public to the dispatcher and checks credentials itself, so clients get the `WWW-Authenticate`
 * challenge they need instead of a JSON 401.
 */
export function registerWebdav(router: Router, deps: WebdavDeps, bodyLimit: number): void {
  const handler = (ctx: Ctx) => serve(ctx, deps);
  router.add('*', WEBDAV_PREFIX, { access: 'public', bodyLimit }, handler);
  router.add('*', `${WEBDAV_PREFIX}/*`, { access: 'public', bodyLimit }, handler);
}

async function serve(ctx: Ctx, deps: WebdavDeps): Promise<void> {
  ctx.reply.header('DAV', '1, 2').header('MS-Author-Via', 'DAV');
  try {
    if (!ctx.principal) {
      return davStatus(ctx, 401, 'Authentication required', {
        'WWW-Authenticate': 'Basic realm="Spool WebDAV", charset="UTF-8"',
      });
    }
    const r: DavRequest = {
      ctx,
      deps,
      path: decodeUrlPath(ctx.req.rawPath.slice(WEBDAV_PREFIX.length)),
      prefix: WEBDAV_PREFIX,
    };
    if (ctx.req.method === 'OPTIONS') return davStatus(ctx, 200, '', { Allow: ALLOW });
    if (ctx.principal.readOnly && !READ_METHODS.has(ctx.req.method))
      throw new DavError(
        403,
        ctx.principal.userId === WEBDAV_PRINCIPAL_ID
          ? 'The WebDAV account (webdav.user) can only read; sign in as a Spool user to change files'
          : 'This account is read-only: it can read files but not change them',
      );
    checkIfHeader(r);
    await dispatch(r);
  } catch (err) {
    answerError(ctx, deps, err);
  }
}

function dispatch(r: DavRequest): Promise<void> | void {
  switch (r.ctx.req.method) {
    case 'GET':
    case 'HEAD':
      return handleGet(r);
    case 'PROPFIND':
      return handlePropfind(r);
    case 'PROPPATCH':
      return handleProppatch(r);
    case 'PUT':
      return handlePut(r);
    case 'MKCOL':
      return handleMkcol(r);
    case 'DELETE':
      return handleDelete(r);
    case 'COPY':
      return handleCopyMove(r, 'copy');
    case 'MOVE':
      return handleCopyMove(r, 'move');
    case 'LOCK':
      return handleLock(r);
    case 'UNLOCK':
      return handleUnlock(r);
    default:
      throw new DavError(405, `Method ${r.ctx.req.method} is not supported here`);
  }
}

function answerError(ctx: Ctx, deps: WebdavDeps, err: unknown): void {
  if (ctx.reply.aborted) return;
  if (ctx.reply.sent) {
    ctx.reply.close();
    return;
  }
  if (err instanceof DavError)
    return davStatus(ctx, err.status, err.message, err.status === 405 ? { Allow: ALLOW } : {});
  if (err instanceof VfsReadError) return davStatus(ctx, 502, err.message);
  if (err instanceof AppError) {
    if (err.status === 413) ctx.reply.header('Connection', 'close');
    return davStatus(ctx, err.status, err.message);
  }
  const diskFull = diskFullError(err);
  if (diskFull) return davStatus(ctx, diskFull.status, diskFull.message);
  deps.logger.error('webdav request failed', {
    method: ctx.req.method,
    path: ctx.req.rawPath,
    error: (err as Error)?.stack ?? String(err),
  });
  davStatus(ctx, 500, `Internal server error (request id ${ctx.req.requestId})`);
}
