import { z } from 'zod';
import { Page } from '../http/envelope.js';
import { validationFailed } from '../errors/field-errors.js';
import type { Router } from '../http/router.js';
import { zodToFieldErrors } from '../errors/field-errors.js';
import {
  QUEUE_STATUSES,
  readNzbUpload,
  toQueueJson,
  UPLOAD_BODY_LIMIT,
  type ImporterDomain,
} from '../importer/index.js';
import type { QueueBulkDeleteResult, QueueBulkRestartResult, QueueClearResult } from '../importer/queue.wire.js';
import { parseCategory, parsePriority, parseTime } from '../importer/request-parsing.js';

// Not strict: apikey and cache busters ride along on every route.
const listQuery = z.object({
  // limit=0 means "all" (docs/console-contract.md §7); the console pages by 20.
  limit: z.coerce.number().int('limit must be a whole number').min(0).max(1000).default(20),
  offset: z.coerce.number().int('offset must be a whole number').min(0).default(0),
  status: z.enum(QUEUE_STATUSES).optional(),
  search: z.string().max(200).optional(),
});
const idsBody = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(10_000) });

function queueId(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw validationFailed([{ field: 'id', message: 'id must be a positive whole number' }]);
  return id;
}

/** docs/console-contract.md §7 Queue. Thin: parse, call the queue service, serialise. */
export function registerQueueRoutes(router: Router, { importer }: { importer: ImporterDomain }): void {
  const { queue } = importer;

  router.get('/api/queue', { access: 'user' }, async (ctx) => {
    const parsed = listQuery.safeParse(Object.fromEntries(ctx.query));
    if (!parsed.success) throw validationFailed(zodToFieldErrors(parsed.error));
    const q = parsed.data;
    const since = parseTime(ctx.query.get('since'), 'since');
    const { items, total } = await queue.list({ ...q, since, search: q.search?.trim() || undefined });
    return new Page(items.map(toQueueJson), { total, limit: q.limit, offset: q.offset });
  });

  router.get('/api/queue/stats', { access: 'user' }, () => queue.stats());

  router.get('/api/queue/:id', { access: 'user' }, async (ctx) =>
    toQueueJson(await queue.require(queueId(ctx.params.id))),
  );

  router.delete('/api/queue/:id', { access: 'user' }, async (ctx) => {
    const removed = await queue.remove(queueId(ctx.params.id));
    return { id: removed.id, message: 'Queue item deleted' };
  });

  router.delete('/api/queue/bulk', { access: 'user' }, async (ctx) => {
    const { ids } = await ctx.json(idsBody);
    const { deleted, skipped } = await queue.bulkRemove(ids);
    return {
      deleted_count: deleted,
      skipped_ids: skipped,
      message: `Deleted ${deleted} queue item(s)`,
    } satisfies QueueBulkDeleteResult;
  });

  router.post('/api/queue/bulk/restart', { access: 'user' }, async (ctx) => {
    const { ids } = await ctx.json(idsBody);
    const { restarted, skipped } = await queue.bulkRestart(ids);
    return {
      restarted_count: restarted,
      skipped_ids: skipped,
      message: `Restarted ${restarted} queue item(s)`,
    } satisfies QueueBulkRestartResult;
  });

  router.post('/api/queue/:id/retry', { access: 'user' }, async (ctx) =>
    toQueueJson(await queue.retry(queueId(ctx.params.id))),
  );

  for (const status of ['completed', 'failed'] as const) {
    router.delete(`/api/queue/${status}`, { access: 'user' }, async (ctx) => {
      const { deleted } = await queue.clear(status, parseTime(ctx.query.get('older_than'), 'older_than'));
      return { deleted_count: deleted, message: `Cleared ${deleted} ${status} item(s)` } satisfies QueueClearResult;
    });
  }

  router.post('/api/queue/upload', { access: 'user', bodyLimit: UPLOAD_BODY_LIMIT, body: 'multipart' }, async (ctx) => {
    const upload = await readNzbUpload(ctx.req, ['file']);
    const item = await queue.enqueue({
      nzb: upload.bytes,
      nzbPath: upload.filename,
      category: parseCategory(upload.fields.category),
      priority: parsePriority(upload.fields.priority),
    });
    return toQueueJson(item);
  });
}
