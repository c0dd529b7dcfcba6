import { AppError } from '../errors/app-error.js';
import type { Router } from '../http/router.js';
import { fileMeta } from '../vfs/file-meta.js';
import { exportNzb } from '../vfs/nzb-export.js';
import type { FileHealth } from '../vfs/types.js';
import type { VfsService } from '../vfs/vfs.service.js';

/** The console passes WebDAV paths; accept them with or without the /webdav prefix. */
function vfsPath(raw: string | null): string {
  if (!raw) throw new AppError('VALIDATION_FAILED', 'path is required', [{ field: 'path', message: 'Required' }]);
  return raw.replace(/^\/webdav(?=\/|$)/, '') || '/';
}

/** docs/console-contract.md §7 Files: GET /api/files/info and GET /api/files/export-nzb. */
export interface FilesRouteDeps {
  vfs: VfsService;
  /** What the health domain knows of a file (its verdict, its articles known unavailable) for /api/files/info. */
  health?: (path: string) => Promise<FileHealth>;
}

export function registerFilesRoutes(router: Router, { vfs, health }: FilesRouteDeps): void {
  router.get('/api/files/info', { access: 'user' }, async (ctx) => {
    const node = vfs.requireNode(vfsPath(ctx.query.get('path')));
    return fileMeta(vfs, node.path, (await health?.(node.path)) ?? {});
  });
  router.get('/api/files/export-nzb', { access: 'user' }, (ctx) => {
    const { filename, xml } = exportNzb(vfs, vfsPath(ctx.query.get('path')));
    ctx.reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`);
    ctx.reply.status(200).send(xml, 'application/x-nzb; charset=utf-8', ctx.req.method === 'HEAD');
  });
}
