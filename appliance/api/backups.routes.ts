import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { BackupsService } from '../backup/index.js';
import { AppError } from '../errors/app-error.js';
import type { Router } from '../http/router.js';

const keepSchema = z.strictObject({ keep_forever: z.boolean({ error: 'keep_forever must be true or false' }) });

/**
 * docs/console-contract.md "Backups" (admin only): list, take one now, download (streamed), upload (streamed to
 * disk, checked whole before it is kept), keep forever, delete, restore (then the app restarts into it).
 */
export function registerBackupRoutes(router: Router, backups: BackupsService, uploadLimit: number): void {
  router.get('/api/system/backups', { access: 'admin' }, () => backups.list());
  router.post('/api/system/backups', { access: 'admin' }, () => backups.create('manual'));
  router.get('/api/system/backups/schedule', { access: 'admin' }, (ctx) =>
    backups.preview(ctx.query.get('expression') ?? undefined),
  );
  router.post('/api/system/backups/upload', { access: 'admin', body: 'binary', bodyLimit: uploadLimit }, (ctx) => {
    if (!ctx.req.body) throw new AppError('VALIDATION_FAILED', 'Send the backup archive as the request body');
    return backups.upload(ctx.req.body);
  });
  router.patch('/api/system/backups/:name', { access: 'admin' }, async (ctx) => {
    const { keep_forever } = await ctx.json(keepSchema);
    return backups.setKeep(ctx.params.name!, keep_forever);
  });
  router.delete('/api/system/backups/:name', { access: 'admin' }, async (ctx) => {
    await backups.remove(ctx.params.name!);
    return { message: `Deleted ${ctx.params.name}` };
  });
  router.post('/api/system/backups/:name/restore', { access: 'admin' }, (ctx) => backups.restore(ctx.params.name!));
  router.get('/api/system/backups/:name/download', { access: 'admin' }, async (ctx) => {
    const path = backups.pathOf(ctx.params.name!);
    const { size } = await stat(path);
    ctx.reply.header('Content-Disposition', `attachment; filename="${ctx.params.name!}"`);
    ctx.reply.header('Content-Type', 'application/x-tar');
    if (ctx.req.method === 'HEAD') return ctx.reply.status(200).head(size);
    await ctx.reply.status(200).stream(createReadStream(path, { highWaterMark: 256 * 1024 }), size);
  });
}
