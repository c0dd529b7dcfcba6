import { api } from './client';
import type { ApiKeyJson, RegisterBody } from '../../../appliance/auth/auth.wire';
import type { AuthConfig, RegistrationStatus, User } from './types';

export type RegisterInput = RegisterBody;

export const authApi = {
  config: () => api.get<AuthConfig>('/auth/config'),
  registrationStatus: () => api.get<RegistrationStatus>('/auth/registration-status'),
  login: (username: string, password: string) =>
    api.post<{ user?: User } | null>('/auth/login', { username, password }),
  register: (input: RegisterInput) => api.post<{ user?: User } | null>('/auth/register', input),
  currentUser: () => api.get<User>('/user'),
  refresh: () => api.post<User | { user?: User } | null>('/user/refresh'),
  logout: () => api.post<unknown>('/user/logout'),
  regenerateApiKey: () => api.post<Partial<ApiKeyJson> | null>('/user/api-key/regenerate'),
};
