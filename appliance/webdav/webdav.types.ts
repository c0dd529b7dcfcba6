import type { Ctx } from '../http/context.js';
import type { Logger } from '../logging/logger.js';
import type { VfsReader } from '../vfs/reader.js';
import type { ReadHandles } from '../vfs/read-handle.js';
import type { VfsService } from '../vfs/vfs.service.js';
import type { LockManager } from './lock.manager.js';

export interface WebdavDeps {
  vfs: VfsService;
  reader: VfsReader;
  /** GET reads through a read handle (the same as FUSE's), so the live view of streams sees it. */
  handles: ReadHandles;
  locks: LockManager;
  logger: Logger;
  /** Largest sidecar a client may PUT (subtitles, .nfo, artwork). */
  sidecarMaxBytes: () => number;
}

/** One WebDAV request: the decoded target path plus helpers shared by the method handlers. */
export interface DavRequest {
  ctx: Ctx;
  deps: WebdavDeps;
  /** Normalised virtual path ('/' for /webdav itself). */
  path: string;
  /** The URL prefix the tree is mounted at ('/webdav'). */
  prefix: string;
}

/** Answers a WebDAV status with a short plain-text body (clients show it; no JSON envelope on /webdav). */
export function davStatus(ctx: Ctx, status: number, message = '', headers: Record<string, string> = {}): void {
  ctx.reply.status(status);
  for (const [k, v] of Object.entries(headers)) ctx.reply.header(k, v);
  if (status === 204 || status === 304 || ctx.req.method === 'HEAD') ctx.reply.end();
  else ctx.reply.send(message ? `${message}\n` : '', 'text/plain; charset=utf-8');
}

export function hrefOf(prefix: string, path: string, isDir: boolean): string {
  const enc = path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  const href = prefix + (enc === '/' ? '' : enc);
  return isDir ? `${href}/` : href;
}

/**
 * Whether a listing shows files a health check found corrupted (docs/health.md "Continuity"): yes unless the request
 * says `X-Show-Corrupted: false`. Players and media servers send no such header, so a file under repair stays listed
 * at its library path; the console's Files screen sends `false` to hide them behind its toggle.
 */
export function showsCorrupted(header: string | undefined): boolean {
  return header?.trim().toLowerCase() !== 'false';
}
