import { api } from './client';
import type { User } from './types';

export const usersApi = {
  list: (limit = 100, offset = 0) => api.list<User>('/users', { query: { limit, offset } }),
  setAdmin: (id: string, isAdmin: boolean) =>
    api.put<User>(`/users/${encodeURIComponent(id)}/admin`, { is_admin: isAdmin }),
};
