import { api } from '../../../../api/client';

/** docs/console-contract.md §3 Provider as the server returns it: the password never comes back, only whether one is set. */
export interface Provider {
  id: string;
  host: string;
  port: number;
  username: string;
  password_set: boolean;
  max_connections: number;
  tls: boolean;
  insecure_tls: boolean;
  /** PEM of a private CA trusted for this provider; no secret, empty when not set. */
  ca?: string;
  enabled: boolean;
  is_backup_provider: boolean;
}

export interface ProviderTestResult {
  success: boolean;
  error_message?: string;
}

export interface ProviderTestInput {
  host: string;
  port: number;
  username: string;
  password: string;
  tls: boolean;
  insecure_tls: boolean;
  ca: string;
  /** Edit mode with an empty password: the server tests with the saved one. */
  id?: string;
}

export const providersApi = {
  test: (input: ProviderTestInput) => api.post<ProviderTestResult>('/providers/test', input),
  create: (input: Record<string, unknown>) => api.post<Provider>('/providers', input),
  update: (id: string, changes: Record<string, unknown>) =>
    api.put<Provider>(`/providers/${encodeURIComponent(id)}`, changes),
  remove: (id: string) => api.delete<unknown>(`/providers/${encodeURIComponent(id)}`),
  reorder: (ids: string[]) => api.put<Provider[]>('/providers/reorder', { provider_ids: ids }),
};
