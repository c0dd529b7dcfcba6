import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { configApi, systemApi } from '../../api/config';
import { describeError } from '../../api/client';
import { configKeys } from './configKeys';
import { Badge } from '../../components/Badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Icon } from '../../components/Icon';
import { LoadingBlock } from '../../components/Spinner';
import { toast } from '../../components/toast';
import { configDirty } from './configState';
import { ConfigMenu } from './ConfigMenu';
import { RestartBanner } from './RestartBanner';
import { SectionView } from './SectionView';
import { clearRestartRequired } from './restartState';
import type { ConfigSectionId } from './sections';

/** docs/console-contract.md §9: the page reloads 3000 ms after a restart was accepted. */
const RESTART_RELOAD_MS = 3000;

export function ConfigPage({ section }: { section: ConfigSectionId }) {
  useSignals();
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: configKeys.values, queryFn: configApi.get });
  const [confirmRestart, setConfirmRestart] = useState(false);

  const reload = useMutation({
    mutationFn: configApi.reload,
    onSuccess: async (answer) => {
      if (answer?.config) queryClient.setQueryData(configKeys.values, answer.config);
      else await queryClient.invalidateQueries({ queryKey: configKeys.values });
      clearRestartRequired();
      toast.success('Configuration reloaded successfully from file');
    },
    onError: (err) =>
      toast.error('Failed to reload configuration', describeError(err, 'Failed to reload configuration')),
  });

  const restart = useMutation({
    mutationFn: systemApi.restart,
    onSuccess: () => {
      setConfirmRestart(false);
      clearRestartRequired();
      toast.info('Server restart initiated. Page will reload shortly...');
      setTimeout(() => window.location.reload(), RESTART_RELOAD_MS);
    },
    onError: (err) => {
      setConfirmRestart(false);
      toast.error('Failed to restart server', describeError(err, 'Failed to restart server'));
    },
  });

  let body;
  if (config.isPending) body = <LoadingBlock label="Loading configuration..." />;
  else if (config.isError)
    body = (
      <ErrorPanel
        title="Something went wrong"
        message={describeError(config.error, 'The configuration could not be loaded')}
        onRetry={() => void config.refetch()}
      />
    );
  else if (!config.data)
    body = (
      <ErrorPanel
        title="Configuration Not Available"
        message="Unable to load configuration. Please check the server status."
      />
    );
  else body = <SectionView section={section} config={config.data} />;

  return (
    <div className="config">
      <div className="page-header">
        <div className="page-header__text">
          <h2 className="page-header__title">
            Settings {configDirty.value && <Badge tone="warning">Unsaved Changes</Badge>}
          </h2>
          <p className="muted">Saved to the configuration file; most changes apply at once.</p>
        </div>
        <div className="page-header__actions">
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => reload.mutate()}
            disabled={reload.isPending}
          >
            <Icon name="refresh" size={16} /> {reload.isPending ? 'Reloading...' : 'Reload'}
          </button>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setConfirmRestart(true)}
            disabled={restart.isPending}
          >
            <Icon name="power" size={16} /> Restart Server
          </button>
        </div>
      </div>
      <RestartBanner />
      <div className="config__layout">
        <ConfigMenu />
        <div>{body}</div>
      </div>
      <ConfirmDialog
        open={confirmRestart}
        title="Restart Server"
        message="Spool will stop and start again. Streams and imports in progress are interrupted. Continue?"
        confirmLabel="Restart Server"
        tone="danger"
        busy={restart.isPending}
        onConfirm={() => restart.mutate()}
        onCancel={() => setConfirmRestart(false)}
      />
    </div>
  );
}
