import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi } from '../../../api/auth';
import type { SpoolConfig } from '../../../api/types';
import { describeError } from '../../../api/client';
import { refreshUser } from '../../../auth/authStore';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Icon } from '../../../components/Icon';
import { LoadingBlock } from '../../../components/Spinner';
import { toast } from '../../../components/toast';
import { copyText } from '../../../lib/clipboard';
import { APP_VERSION } from '../../../lib/meta';
import { accountKeys } from '../../login/accountKeys';
import { BackupsCard } from './BackupsCard';
import { NamedApiKeys } from './NamedApiKeys';
import { SystemHealthCard } from './system/SystemHealthCard';

/** docs/console-contract.md §9: copy feedback lasts 2 s. */
const COPIED_MS = 2000;

function ApiKeyCard() {
  const queryClient = useQueryClient();
  const user = useQuery({ queryKey: accountKeys.user, queryFn: authApi.currentUser, staleTime: 0 });
  const [revealed, setRevealed] = useState(false);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  const regenerate = useMutation({
    mutationFn: authApi.regenerateApiKey,
    onSuccess: async () => {
      setConfirming(false);
      toast.success('API key regenerated successfully');
      await queryClient.invalidateQueries({ queryKey: accountKeys.user });
      await refreshUser();
    },
    onError: (err) => {
      setConfirming(false);
      toast.error('Failed to regenerate API key', describeError(err, 'Failed to regenerate API key'));
    },
  });

  const key = user.data?.api_key ?? '';
  const onCopy = async () => {
    try {
      await copyText(key);
      setCopied(true);
      toast.success('API key copied to clipboard');
    } catch {
      toast.error('Failed to copy API key');
    }
  };

  let body;
  if (user.isPending) body = <LoadingBlock label="Loading API key..." />;
  else if (user.isError)
    body = <p className="muted">API keys belong to user accounts. Sign in (with login required) to see yours.</p>;
  else
    body = (
      <>
        <div className="api-key">
          <code aria-label="API key">
            {key ? (revealed ? key : '•'.repeat(Math.min(key.length, 24))) : 'No API key'}
          </code>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setRevealed((v) => !v)}
            aria-pressed={revealed}
            disabled={!key}
          >
            <Icon name={revealed ? 'eyeOff' : 'eye'} size={16} /> {revealed ? 'Hide' : 'Show'}
          </button>
          <button type="button" className="btn btn--secondary" onClick={() => void onCopy()} disabled={!key}>
            <Icon name={copied ? 'check' : 'copy'} size={16} /> {copied ? 'Copied' : 'Copy'}
          </button>
          <button
            type="button"
            className="btn btn--danger"
            onClick={() => setConfirming(true)}
            disabled={regenerate.isPending}
          >
            <Icon name="refresh" size={16} /> {regenerate.isPending ? 'Regenerating...' : 'Regenerate'}
          </button>
        </div>
        <p className="field__hint">
          Use it as <code>X-Api-Key</code> header or <code>apikey</code> parameter, and as the SABnzbd API key in
          Radarr/Sonarr.
        </p>
      </>
    );

  return (
    <div className="field">
      <span className="field__label">API key</span>
      {body}
      <ConfirmDialog
        open={confirming}
        title="Regenerate API key"
        message="The current key stops working at once. Radarr, Sonarr and scripts using it must be updated."
        confirmLabel="Regenerate"
        tone="danger"
        busy={regenerate.isPending}
        onConfirm={() => regenerate.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

export function SystemSection({ config }: { config: SpoolConfig }) {
  return (
    <section className="card config-section" aria-labelledby="config-section-title">
      <header className="config-section__header">
        <h2 id="config-section-title">System</h2>
        <p>Your API key and facts about this installation.</p>
      </header>
      <ApiKeyCard />
      <NamedApiKeys />
      <SystemHealthCard />
      <BackupsCard config={config} />
      <dl className="metric-list">
        <div>
          <dt>Version</dt>
          <dd>{APP_VERSION}</dd>
        </div>
      </dl>
    </section>
  );
}
