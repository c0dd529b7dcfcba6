import { api } from './client';
import type { ConfigSectionName, ConfigWriteResult, SpoolConfig } from './types';

export const configApi = {
  get: () => api.get<SpoolConfig>('/config'),
  /** PATCH /config/{section} with the payload shape of docs/console-contract.md §7: `{section, config}`. */
  patch: (section: ConfigSectionName, config: Record<string, unknown>) =>
    api.patch<ConfigWriteResult>(`/config/${section}`, { section, config }),
  reload: () => api.post<ConfigWriteResult>('/config/reload'),
  validate: (config: unknown) => api.post<unknown>('/config/validate', config),
};

export const systemApi = {
  restart: () => api.post<unknown>('/system/restart', { force: false }),
};
