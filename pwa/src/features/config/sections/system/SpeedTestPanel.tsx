import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../../../api/client';
import { diagnosticsApi } from '../../../../api/diagnostics';
import { statsApi } from '../../../../api/stats';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { toast } from '../../../../components/toast';
import type { SpeedTestStatus } from '../../../../../../appliance/diagnostics/diagnostics.wire';

const KEY = ['system', 'speedtest'];

function Steps({ status }: { status: SpeedTestStatus }) {
  if (status.steps.length === 0) return null;
  return (
    <table className="table" aria-label="Speed test steps">
      <thead>
        <tr>
          <th>Connections</th>
          <th>MB/s</th>
        </tr>
      </thead>
      <tbody>
        {status.steps.map((s) => (
          <tr key={s.connections}>
            <td>{s.connections}</td>
            <td>{s.mb_per_s.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One provider's speed test: connections ramped to the knee; the suggestion is kept only on confirm. */
export function SpeedTestPanel() {
  const queryClient = useQueryClient();
  const pool = useQuery({ queryKey: ['system', 'pool'], queryFn: statsApi.pool });
  const status = useQuery({
    queryKey: KEY,
    queryFn: diagnosticsApi.speedTest,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 1000 : false),
  });
  const [chosen, setChosen] = useState('');
  const [confirming, setConfirming] = useState(false);
  const providers = pool.data?.providers ?? [];
  const providerId = chosen || providers[0]?.id || '';
  const start = useMutation({
    mutationFn: () => diagnosticsApi.startSpeedTest({ provider_id: providerId }),
    onSuccess: (s) => queryClient.setQueryData(KEY, s),
    onError: (err) => toast.error('Failed to start the speed test', describeError(err, 'Failed to start')),
  });
  const s = status.data;
  const suggested = s?.suggested_max_connections ?? null;
  const apply = useMutation({
    mutationFn: () => diagnosticsApi.applySpeedTest({ provider_id: s!.provider_id!, max_connections: suggested! }),
    onSuccess: () => {
      setConfirming(false);
      toast.success(`max_connections set to ${suggested}`);
    },
    onError: (err) => {
      setConfirming(false);
      toast.error('Failed to apply', describeError(err, 'Failed to apply'));
    },
  });
  const running = s?.state === 'running';
  const chosenMax = providers.find((p) => p.id === providerId)?.max_connections;
  return (
    <section aria-label="Speed test">
      <span className="field__label">Provider speed test</span>
      <p className="field__hint" aria-label="Speed test limit">
        The test opens up to the provider&apos;s max connections{chosenMax ? ` (${chosenMax})` : ''} of its own and
        never more than that together with Spool&apos;s: while it runs, Spool closes its idle connections to that
        provider and opens none, so the account&apos;s connection limit is never exceeded. Other work for that provider
        waits until the test ends; a player starting stops the test.
      </p>
      <div className="api-key">
        <label>
          Provider{' '}
          <select value={providerId} onChange={(e) => setChosen(e.target.value)} disabled={running}>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id} ({p.host})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => start.mutate()}
          disabled={!providerId || running || start.isPending}
        >
          {running ? 'Testing...' : 'Run speed test'}
        </button>
      </div>
      {s && s.state !== 'idle' && (
        <>
          <p aria-label="Speed test state">
            {s.provider_id}: {s.state}
            {s.reason ? ` (${s.reason})` : ''}
          </p>
          <Steps status={s} />
          {!running && suggested !== null && (
            <p>
              Suggested: <strong aria-label="Suggested connections">{suggested}</strong> connections (now{' '}
              {s.current_max_connections}).{' '}
              <button type="button" className="btn btn--primary" onClick={() => setConfirming(true)}>
                Use {suggested} connections
              </button>
            </p>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Change max connections"
        message={`Set ${s?.provider_id ?? ''}'s max connections to ${suggested ?? ''}?`}
        confirmLabel="Apply"
        busy={apply.isPending}
        onConfirm={() => apply.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
