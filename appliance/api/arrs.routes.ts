import { z } from 'zod';
import type { ArrsDomain } from '../arrs/index.js';
import type { Router } from '../http/router.js';

const TestInput = z.object({
  type: z.enum(['radarr', 'sonarr'], 'Must be radarr or sonarr'),
  url: z.string().default(''),
  api_key: z.string().default(''),
  /** A saved instance: with an empty api_key, its stored key is used. */
  name: z.string().optional(),
});

/** /api/arrs (docs/arrs.md). Admin only: the test reaches out to a URL the caller chooses. */
export function registerArrsRoutes(router: Router, deps: { arrs: ArrsDomain }): void {
  router.post('/api/arrs/instances/test', { access: 'admin' }, async (ctx) =>
    deps.arrs.service.testConnection(await ctx.json(TestInput)),
  );
}
