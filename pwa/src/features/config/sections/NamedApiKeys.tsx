import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeysApi } from '../../../api/apiKeys';
import { describeError } from '../../../api/client';
import { toast } from '../../../components/toast';
import { KEY_SCOPES, type KeyScope } from '../../../../../appliance/auth/api-key.wire';

const QUERY_KEY = ['user', 'api-keys'];

/** One key per program, each with the least it needs (docs/security.md, "API keys"). */
const SCOPE_HINTS: Record<KeyScope, string> = {
  full: 'everything you may do',
  sabnzbd: 'the SABnzbd API (Radarr, Sonarr)',
  'add-only': 'add NZBs only (an indexer)',
  metrics: 'GET /metrics only (Prometheus)',
  'read-only': 'read, change nothing',
};

function CreateKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>('sabnzbd');
  const create = useMutation({
    mutationFn: apiKeysApi.create,
    onSuccess: async (made) => {
      setName('');
      onCreated(made.secret);
      await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
    onError: (err) => toast.error('Failed to create API key', describeError(err, 'Failed to create API key')),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name, scope });
  };
  return (
    <form aria-label="New API key" onSubmit={submit} className="api-key">
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={64} />
      </label>
      <label>
        Scope{' '}
        <select value={scope} onChange={(e) => setScope(e.target.value as KeyScope)}>
          {KEY_SCOPES.map((s) => (
            <option key={s} value={s}>
              {s}: {SCOPE_HINTS[s]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn btn--secondary" disabled={create.isPending}>
        Create key
      </button>
    </form>
  );
}

export function NamedApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: QUERY_KEY, queryFn: apiKeysApi.list });
  const [secret, setSecret] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: apiKeysApi.revoke,
    onSuccess: async () => {
      toast.success('API key revoked');
      await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
    onError: (err) => toast.error('Failed to revoke API key', describeError(err, 'Failed to revoke API key')),
  });
  return (
    <div className="field">
      <span className="field__label">Named API keys</span>
      <CreateKeyForm onCreated={setSecret} />
      {secret && (
        <p role="status">
          Copy the new key now, it is shown only once: <code aria-label="New key secret">{secret}</code>
        </p>
      )}
      {keys.isError ? (
        <p className="muted">Sign in (with login required) to manage your keys.</p>
      ) : (
        <table aria-label="API keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Scope</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(keys.data ?? []).map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>{k.scope}</td>
                <td>
                  {k.last_used_at ? `${new Date(k.last_used_at).toLocaleString()} from ${k.last_used_ip}` : 'never'}
                </td>
                <td>
                  <button type="button" className="btn btn--danger" onClick={() => revoke.mutate(k.id)}>
                    Revoke {k.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
