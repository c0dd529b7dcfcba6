import { AppError } from '../errors/app-error.js';
import { parentOf } from '../vfs/path.js';
import { checkPreconditions } from './conditional.js';
import { DavError, requireWritable, resolveHref } from './write.guard.js';
import { davStatus, type DavRequest } from './webdav.types.js';

/** Media must come from Usenet through an import, never by upload: these are refused whatever their size. */
const MEDIA_EXT = /\.(mkv|mp4|m4v|avi|mov|wmv|flv|webm|ts|m2ts|mpg|mpeg|iso|vob|rar|7z|zip|par2|\d{3})$/i;

/** PUT: small sidecar files only (subtitles, .nfo, artwork), stored on local disk beside the virtual tree. */
export async function handlePut(r: DavRequest): Promise<void> {
  const { ctx, deps } = r;
  if (r.path === '/') throw new DavError(405, 'Cannot PUT to the root');
  if (MEDIA_EXT.test(r.path)) throw new DavError(403, 'Media files cannot be uploaded; import an NZB instead');
  const max = deps.sidecarMaxBytes();
  const declared = ctx.req.body?.declaredLength ?? 0;
  if (declared > max) throw new AppError('BODY_TOO_LARGE', `Uploads are limited to ${max} bytes (sidecar files only)`);
  const existing = deps.vfs.stat(r.path);
  const pre = checkPreconditions(ctx.req, existing?.etag ?? null, existing?.modifiedAt ?? null);
  if (pre !== 'ok') throw new DavError(412, 'Precondition failed');
  requireWritable(r, r.path);
  if (ctx.req.header('content-range')) throw new DavError(400, 'Partial PUT is not supported');
  const bytes = await ctx.body(max);
  const { created } = await deps.vfs.writeSidecar(r.path, bytes);
  const node = deps.vfs.requireNode(r.path);
  davStatus(ctx, created ? 201 : 204, created ? 'Created' : '', { ETag: node.etag });
}

export async function handleMkcol(r: DavRequest): Promise<void> {
  const { ctx, deps } = r;
  const body = await ctx.body();
  if (body.length > 0) throw new DavError(415, 'MKCOL with a body is not supported');
  if (deps.vfs.stat(r.path)) throw new DavError(405, 'Resource already exists');
  requireWritable(r, r.path);
  await deps.vfs.mkdir(r.path);
  davStatus(ctx, 201, 'Created');
}

/** DELETE removes the file or the whole directory from the virtual tree (and, via the 'removed' event, its health record). */
export async function handleDelete(r: DavRequest): Promise<void> {
  const { ctx, deps } = r;
  const node = deps.vfs.requireNode(r.path);
  if (checkPreconditions(ctx.req, node.etag, node.modifiedAt) !== 'ok') throw new DavError(412, 'Precondition failed');
  requireWritable(r, r.path, true);
  await deps.vfs.remove(r.path);
  deps.locks.releaseWithin(r.path);
  davStatus(ctx, 204);
}

/** COPY and MOVE inside the tree: metadata only, no article is touched. */
export async function handleCopyMove(r: DavRequest, mode: 'copy' | 'move'): Promise<void> {
  const { ctx, deps } = r;
  const destHeader = ctx.req.header('destination');
  if (!destHeader) throw new DavError(400, 'Destination header is required');
  const dest = resolveHref(destHeader, r.prefix);
  if (dest === null) throw new DavError(400, 'Malformed Destination');
  if (dest.startsWith('\u0000')) throw new DavError(502, 'Destination is on another server');
  const src = deps.vfs.requireNode(r.path);
  if (dest === r.path) throw new DavError(403, 'Source and destination are the same');
  const overwrite = (ctx.req.header('overwrite') ?? 'T').trim().toUpperCase() !== 'F';
  const depth = (ctx.req.header('depth') ?? 'infinity').trim().toLowerCase();
  if (mode === 'move' && depth !== 'infinity') throw new DavError(400, 'MOVE of a collection requires Depth: infinity');
  if (mode === 'copy' && depth !== '0' && depth !== 'infinity')
    throw new DavError(400, 'COPY Depth must be 0 or infinity');
  if (mode === 'move') requireWritable(r, r.path, true);
  requireWritable(r, dest, true);
  if (!deps.vfs.stat(parentOf(dest))) throw new DavError(409, 'Destination parent does not exist');
  const { replaced } = await deps.vfs.transfer(r.path, dest, {
    mode,
    overwrite,
    shallow: mode === 'copy' && depth === '0' && src.type === 'directory',
  });
  if (mode === 'move') deps.locks.releaseWithin(r.path);
  davStatus(ctx, replaced ? 204 : 201, replaced ? '' : 'Created');
}
