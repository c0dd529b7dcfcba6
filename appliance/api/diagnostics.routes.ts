import { z } from 'zod';
import type { DiagnosticsToolkit } from '../diagnostics/index.js';
import type { Router } from '../http/router.js';

const admin = { access: 'admin' } as const;

const speedTestInput = z.strictObject({
  provider_id: z.string({ error: 'provider_id is required' }).min(1, 'provider_id is required'),
  max_connections: z
    .number({ error: 'max_connections must be a number' })
    .int('max_connections must be a whole number')
    .min(1, 'max_connections must be at least 1')
    .max(100, 'max_connections must be at most 100')
    .optional(),
  max_seconds: z
    .number({ error: 'max_seconds must be a number' })
    .int('max_seconds must be a whole number')
    .min(5, 'max_seconds must be at least 5')
    .max(300, 'max_seconds must be at most 300')
    .optional(),
});

const applyInput = z.strictObject({
  provider_id: z.string({ error: 'provider_id is required' }).min(1, 'provider_id is required'),
  max_connections: z
    .number({ error: 'max_connections must be a number' })
    .int('max_connections must be a whole number')
    .min(1, 'max_connections must be at least 1')
    .max(100, 'max_connections must be at most 100'),
});

/** docs/console-contract.md "Diagnostics": the checks, the provider speed test, the support bundle. Admin only. */
export function registerDiagnosticsRoutes(router: Router, deps: { diagnostics: DiagnosticsToolkit }): void {
  const { service, speedTest, bundle } = deps.diagnostics;
  router.get('/api/system/diagnostics', admin, () => service.run());
  router.get('/api/system/speedtest', admin, () => speedTest.current());
  router.post('/api/system/speedtest', admin, async (ctx) => speedTest.start(await ctx.json(speedTestInput)));
  router.post('/api/system/speedtest/apply', admin, async (ctx) => {
    const { provider_id, max_connections } = await ctx.json(applyInput);
    await speedTest.apply(provider_id, max_connections);
    return { provider_id, max_connections };
  });
  router.get('/api/system/support-bundle', admin, async (ctx) => {
    const archive = await bundle();
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    ctx.reply.header('Content-Disposition', `attachment; filename="spool-support-${stamp}.tar.gz"`);
    ctx.reply.header('Cache-Control', 'no-store');
    ctx.reply.status(200).send(archive, 'application/gzip');
  });
}
