import { api } from '../../../../api/client';
import type { CostViewResponse, FitReportResponse } from '../../../../../../appliance/providers/fit.wire';

/** docs/providers.md "Fit report" and "Cost view": GET /api/providers/fit and /api/providers/cost (admin). */
export const fitApi = {
  report: () => api.get<FitReportResponse>('/providers/fit'),
  cost: () => api.get<CostViewResponse>('/providers/cost'),
};
