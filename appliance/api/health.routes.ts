import { Page } from '../http/envelope.js';
import type { Router } from '../http/router.js';
import type { HealthDomain } from '../health/index.js';
import type { RepairControl } from '../repair/index.js';
import {
  checkBody,
  cleanupBody,
  cleanupCutoff,
  filePathsBody,
  parseHistoryQuery,
  parseListQuery,
  pathParam,
  recordId,
  repairBody,
  retryBody,
} from './health.requests.js';
import type { HealthBulkDeleteResult, HealthBulkRestartResult, HealthCleanupResult } from '../health/health.wire.js';

/** The health calls (docs/health.md). Thin: parse, call the health service or the repairs' control, serialise. */
export function registerHealthRoutes(router: Router, health: HealthDomain, repairs: RepairControl): void {
  const { service: s, json } = health;
  const page = async (q: ReturnType<typeof parseListQuery>) => {
    const { items, total } = await s.list(q);
    return new Page(items.map(json), { total, limit: q.limit, offset: q.offset });
  };
  const user = { access: 'user' } as const;

  router.get('/api/health', user, (ctx) => page(parseListQuery(ctx.query)));
  router.get('/api/health/corrupted', user, (ctx) => page(parseListQuery(ctx.query, { status: 'corrupted' })));
  router.get('/api/health/stats', user, () => s.stats());
  router.get('/api/health/worker/status', user, () => s.workerStatus());
  router.get('/api/health/schedule', user, () => health.schedule());
  // The repair brake and the repair history (docs/health.md; an extension of the contract, docs/console-contract.md).
  router.get('/api/health/repairs', user, () => repairs.brake());
  router.post('/api/health/repairs/resume', { access: 'admin' }, (ctx) => repairs.resume(ctx.user.name));
  router.get('/api/health/repairs/history', user, async (ctx) => {
    const q = parseHistoryQuery(ctx.query);
    const { items, total } = await repairs.history(q.limit, q.offset);
    return new Page(items, { total, limit: q.limit, offset: q.offset });
  });
  router.get('/api/health/:path', user, async (ctx) => json(await s.byPath(pathParam(ctx.params.path))));
  // A path sent with its slashes unencoded still finds its record.
  router.get('/api/health/*', user, async (ctx) => json(await s.byPath(pathParam(ctx.params['*']))));
  router.delete('/api/health/cleanup', user, async (ctx) => {
    const body = await ctx.json(cleanupBody);
    const deleted = await s.cleanup(cleanupCutoff(body.older_than, ctx.query, health.clock.now()), body.status);
    return { deleted_count: deleted, message: `Deleted ${deleted} health record(s)` } satisfies HealthCleanupResult;
  });
  router.delete('/api/health/:id', user, async (ctx) => json(await s.remove(recordId(ctx.params.id))));
  router.post('/api/health/bulk/delete', user, async (ctx) => {
    const { deleted, missing } = await s.bulkDelete((await ctx.json(filePathsBody)).file_paths);
    return {
      deleted_count: deleted,
      missing_paths: missing,
      message: `Deleted ${deleted} health record(s)`,
    } satisfies HealthBulkDeleteResult;
  });
  router.post('/api/health/bulk/restart', user, async (ctx) => {
    const { restarted, missing } = await s.bulkRestart((await ctx.json(filePathsBody)).file_paths);
    return {
      restarted_count: restarted,
      missing_paths: missing,
      message: `Restarted ${restarted} health check(s)`,
    } satisfies HealthBulkRestartResult;
  });
  router.post('/api/health/check', user, async (ctx) => {
    const b = await ctx.json(checkBody);
    return json(await s.check(b.file_path, b.source_nzb_path, b.priority));
  });
  router.post('/api/health/:path/retry', user, async (ctx) =>
    json(await s.retry(pathParam(ctx.params.path), (await ctx.json(retryBody)).reset_status)),
  );
  router.post('/api/health/:id/repair', user, async (ctx) =>
    json(await s.repair(recordId(ctx.params.id), (await ctx.json(repairBody)).reset_repair_retry_count)),
  );
  router.post('/api/health/:id/check-now', user, async (ctx) => json(await s.checkNow(recordId(ctx.params.id))));
  router.post('/api/health/:id/cancel', user, async (ctx) => json(await s.cancel(recordId(ctx.params.id))));
}
