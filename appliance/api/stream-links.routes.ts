import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import type { Router } from '../http/router.js';
import type { StreamLinkRecord, StreamLinkService } from '../streamlinks/index.js';
import type { StreamLinkJson } from '../streamlinks/stream-links.wire.js';
import type { VfsService } from '../vfs/vfs.service.js';

const CreateInput = z.object({
  path: z.string().min(1, 'Required'),
  folder: z.boolean().optional(),
  /** Seconds the link lives; 0 or absent: until revoked. */
  ttl_seconds: z.number().int('Must be a whole number').min(0, 'Must be 0 or more').max(315_360_000).optional(),
});

/** Stream links (docs/security.md "Stream links"): make one for a file or folder, list them, revoke one or all. */
export function registerStreamLinkRoutes(router: Router, deps: { links: StreamLinkService; vfs: VfsService }) {
  const { links, vfs } = deps;
  const json = async (l: StreamLinkRecord): Promise<StreamLinkJson> => ({
    id: l.id,
    path: l.path,
    folder: l.folder,
    expires_at: l.expiresAt ? new Date(l.expiresAt * 1000).toISOString() : null,
    created_at: new Date(l.createdAt * 1000).toISOString(),
    created_by: l.createdBy,
    url: await links.urlOf(l),
  });
  router.post('/api/files/links', { access: 'admin' }, async (ctx) => {
    const input = await ctx.json(CreateInput);
    const node = vfs.requireNode(input.path.replace(/^\/webdav(?=\/|$)/, '') || '/');
    const folder = node.type === 'directory';
    if (input.folder !== undefined && input.folder !== folder)
      throw new AppError('VALIDATION_FAILED', 'folder does not match the path', [
        { field: 'folder', message: folder ? 'The path is a folder' : 'The path is a file' },
      ]);
    const made = await links.create({
      path: node.path,
      folder,
      ttlSeconds: input.ttl_seconds,
      createdBy: ctx.user.name,
    });
    return json(made.link);
  });
  router.get('/api/files/links', { access: 'admin' }, async () => ({
    links: await Promise.all((await links.list()).map(json)),
  }));
  router.delete('/api/files/links/:id', { access: 'admin' }, async (ctx) => {
    if (!(await links.revoke(ctx.params['id'] as string))) throw new AppError('NO_SUCH_RECORD', 'No such stream link');
    return { revoked: true };
  });
  router.post('/api/files/links/rotate-secret', { access: 'admin' }, async () => {
    await links.rotateSecret();
    return { rotated: true };
  });
}
