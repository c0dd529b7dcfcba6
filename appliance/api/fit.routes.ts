import type { Router } from '../http/router.js';
import type { FitService } from '../providers/fit.service.js';
import type { CostViewResponse, FitReportResponse } from '../providers/fit.wire.js';

/**
 * The fit report of the candidate accounts and the cost view of every account (docs/providers.md "Fit report",
 * "Cost view"). Admin only, like the provider list.
 */
export function registerFitRoutes(router: Router, s: { fit: Pick<FitService, 'report' | 'cost'> }): void {
  const admin = { access: 'admin' } as const;
  router.get('/api/providers/fit', admin, () => s.fit.report() satisfies FitReportResponse);
  router.get('/api/providers/cost', admin, () => s.fit.cost() satisfies CostViewResponse);
}
