import { api } from '../../../../api/client';
import type { RedactedProvider } from '../../../../../../appliance/config/config.wire';
import type { ProviderTestBody, ProviderTestResult } from '../../../../../../appliance/nntp/provider-check.wire';

/** docs/console-contract.md §3 Provider as the server returns it: the password never comes back, only whether one is set. */
export type Provider = RedactedProvider;
export type ProviderTestInput = ProviderTestBody;

export const providersApi = {
  test: (input: ProviderTestInput) => api.post<ProviderTestResult>('/providers/test', input),
  create: (input: Record<string, unknown>) => api.post<Provider>('/providers', input),
  update: (id: string, changes: Record<string, unknown>) =>
    api.put<Provider>(`/providers/${encodeURIComponent(id)}`, changes),
  remove: (id: string) => api.delete<unknown>(`/providers/${encodeURIComponent(id)}`),
  reorder: (ids: string[]) => api.put<Provider[]>('/providers/reorder', { provider_ids: ids }),
};
