import { api } from './client';
import type { User } from './types';
import type { UserRole } from '../../../appliance/auth/auth.wire';

export const usersApi = {
  list: (limit = 100, offset = 0) => api.list<User>('/users', { query: { limit, offset } }),
  setAdmin: (id: string, isAdmin: boolean) =>
    api.put<User>(`/users/${encodeURIComponent(id)}/admin`, { is_admin: isAdmin }),
  setRole: (id: string, role: UserRole) => api.put<User>(`/users/${encodeURIComponent(id)}/role`, { role }),
};
