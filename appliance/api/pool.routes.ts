import type { Router } from '../http/router.js';
import type { NntpPool } from '../nntp/index.js';

/** GET /api/system/pool/metrics (docs/console-contract.md §3 Pool metrics, polled every 5 s) plus a per-provider breakdown. */
export function registerPoolRoutes(router: Router, deps: { pool: NntpPool }): void {
  router.get('/api/system/pool/metrics', { access: 'user' }, () => deps.pool.metrics());
}
