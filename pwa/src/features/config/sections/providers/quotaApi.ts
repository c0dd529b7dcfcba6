import { api } from '../../../../api/client';
import type { ProviderQuotasResponse, ProviderReprobeResponse } from '../../../../../../appliance/providers/quota.wire';

/** docs/nntp.md "Quotas and expiry", "Provider states": each provider's quota use and expiry; the manual re-probe. */
export const quotaApi = {
  get: () => api.get<ProviderQuotasResponse>('/providers/quotas'),
  reprobe: (id: string) => api.post<ProviderReprobeResponse>(`/providers/${encodeURIComponent(id)}/reprobe`, {}),
};
