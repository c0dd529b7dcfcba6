import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usersApi } from '../../api/users';
import type { User } from '../../api/types';
import { describeError } from '../../api/client';
import { usersKeys } from './usersKeys';
import { formatDate } from '../../lib/format';
import { Badge } from '../../components/Badge';
import { Icon } from '../../components/Icon';
import { QueryList } from '../../components/QueryList';
import { toast } from '../../components/toast';
import { refreshUser, auth } from '../../auth/authStore';

function UserRow({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const onSuccess = async () => {
    await queryClient.invalidateQueries({ queryKey: usersKeys.list });
    // Changing one's own role changes what this console may show.
    if (auth.value.user?.id === user.id) await refreshUser();
  };
  const onError = (err: Error) => toast.error('Failed to update user', describeError(err, 'Failed to update user'));
  const toggle = useMutation({ mutationFn: () => usersApi.setAdmin(user.id, !user.is_admin), onSuccess, onError });
  const readOnly = user.role === 'read-only';
  const restrict = useMutation({
    mutationFn: () => usersApi.setRole(user.id, readOnly ? 'user' : 'read-only'),
    onSuccess,
    onError,
  });

  return (
    <li className="user-row">
      <span className="avatar" aria-hidden="true">
        {user.name.slice(0, 2).toUpperCase()}
      </span>
      <div className="user-row__who">
        <p className="user-row__name">
          {user.name}
          {user.is_admin && <Badge tone="accent">Admin</Badge>}
          {readOnly && <Badge>Read-only</Badge>}
        </p>
        <p className="user-row__meta">
          {user.email && <span>{user.email} · </span>}
          {user.provider && <span>via {user.provider} · </span>}
          <span>Last login: {formatDate(user.last_login)}</span>
        </p>
      </div>
      {!user.is_admin && (
        <button
          type="button"
          className="btn btn--sm btn--secondary user-row__action"
          onClick={() => restrict.mutate()}
          disabled={restrict.isPending}
          aria-label={`${readOnly ? 'Allow Changes' : 'Make Read-only'}: ${user.name}`}
        >
          {restrict.isPending ? 'Updating...' : readOnly ? 'Allow Changes' : 'Make Read-only'}
        </button>
      )}
      <button
        type="button"
        className={`btn btn--sm user-row__action ${user.is_admin ? 'btn--secondary' : 'btn--primary'}`}
        onClick={() => toggle.mutate()}
        disabled={toggle.isPending}
        aria-label={`${user.is_admin ? 'Remove Admin' : 'Make Admin'}: ${user.name}`}
      >
        {toggle.isPending ? 'Updating...' : user.is_admin ? 'Remove Admin' : 'Make Admin'}
      </button>
    </li>
  );
}

/** User Management (docs/console-contract.md §2, §6): grant or revoke admin, make read-only or allow changes. */
export function UsersPage() {
  const users = useQuery({ queryKey: usersKeys.list, queryFn: () => usersApi.list() });

  return (
    <section aria-labelledby="users-title">
      <div className="page-header">
        <div className="page-header__text">
          <h2 id="users-title">Users</h2>
          <p className="muted">
            {users.data ? `${users.data.meta.total} account${users.data.meta.total === 1 ? '' : 's'}` : 'Accounts'} that
            may sign in to this console.
          </p>
        </div>
        <div className="page-header__actions">
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => void users.refetch()}
            disabled={users.isFetching}
          >
            <Icon name="refresh" size={16} /> Refresh
          </button>
        </div>
      </div>
      <QueryList
        query={users}
        rowsOf={(d) => d.data}
        loadingText="Loading users..."
        failText="Failed to load users"
        retryLabel="Try again"
        emptyText="No users found."
      >
        {(list) => (
          <ul className="user-list">
            {list.map((u) => (
              <UserRow key={u.id} user={u} />
            ))}
          </ul>
        )}
      </QueryList>
    </section>
  );
}
