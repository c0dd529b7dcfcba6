import { z } from 'zod';
import type { Router } from '../http/router.js';
import type { ImporterDomain } from '../importer/index.js';

// The service checks the path itself so its messages are the contract's (docs/console-contract.md §5: 'Path is required', ...).
const scanBody = z.object({ path: z.unknown().optional() });

/** docs/console-contract.md §7: POST /import/scan {path}, GET /import/scan/status, DELETE /import/scan (cancel). */
export function registerImportRoutes(router: Router, { importer }: { importer: ImporterDomain }): void {
  router.post('/api/import/scan', { access: 'user' }, async (ctx) => {
    const { path } = await ctx.json(scanBody);
    return importer.scan.start(path);
  });
  router.get('/api/import/scan/status', { access: 'user' }, () => importer.scan.status());
  router.delete('/api/import/scan', { access: 'user' }, () => importer.scan.cancel());
}
