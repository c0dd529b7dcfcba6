import { api } from './client';
import type { AuthConfig, RegistrationStatus, User } from './types';

export interface RegisterInput {
  username: string;
  email?: string;
  password: string;
}

export const authApi = {
  config: () => api.get<AuthConfig>('/auth/config'),
  registrationStatus: () => api.get<RegistrationStatus>('/auth/registration-status'),
  login: (username: string, password: string) =>
    api.post<{ user?: User } | null>('/auth/login', { username, password }),
  register: (input: RegisterInput) => api.post<{ user?: User } | null>('/auth/register', input),
  currentUser: () => api.get<User>('/user'),
  refresh: () => api.post<User | { user?: User } | null>('/user/refresh'),
  logout: () => api.post<unknown>('/user/logout'),
  regenerateApiKey: () => api.post<{ api_key?: string } | null>('/user/api-key/regenerate'),
};
