import { api } from './client';
import type { ApiKeyJson, CreateApiKeyBody, CreatedApiKeyJson } from '../../../appliance/auth/api-key.wire';

/** The signed-in user's named API keys (docs/security.md, "API keys"). */
export const apiKeysApi = {
  list: () => api.get<ApiKeyJson[]>('/user/api-keys'),
  create: (body: CreateApiKeyBody) => api.post<CreatedApiKeyJson>('/user/api-keys', body),
  revoke: (id: string) => api.delete<unknown>(`/user/api-keys/${encodeURIComponent(id)}`),
};
