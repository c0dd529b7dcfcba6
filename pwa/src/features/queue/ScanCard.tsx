import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../api/client';
import { Badge, type Tone } from '../../components/Badge';
import { Icon } from '../../components/Icon';
import { ProgressBar } from '../../components/ProgressBar';
import { toast } from '../../components/toast';
import { useLive } from '../../lib/live';
import { POLL } from '../../lib/queryClient';
import { queueApi, type ScanStatus } from './queueApi';
import { queueKeys } from './queueKeys';
import { scanLabel, scanPathError, scanProgress } from './rules';

const LABEL_TONE: Record<string, Tone> = {
  Idle: 'neutral',
  Scanning: 'info',
  'Canceling...': 'warning',
  Error: 'error',
};

const isActive = (s: ScanStatus | undefined) => s?.status === 'scanning' || s?.status === 'canceling';

/** Manual Directory Scan (docs/console-contract.md §2/§5): path checks, Start/Cancel, status polled every 2 s, capped progress. */
export function ScanCard() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | undefined>();
  const isLive = useLive();
  const status = useQuery({
    queryKey: queueKeys.scanStatus,
    queryFn: queueApi.scanStatus,
    // No event tells a scan's progress: it is polled while one runs, and always while the live channel is down.
    refetchInterval: (q) => (isLive && !isActive(q.state.data) ? false : POLL.scanStatus),
  });
  const s = status.data;
  const active = isActive(s);

  // New items arrive while a scan runs: refresh the list and the tiles when it ends.
  const wasActive = useRef(false);
  useEffect(() => {
    if (wasActive.current && !active) void queryClient.invalidateQueries({ queryKey: queueKeys.all });
    wasActive.current = active;
  }, [active, queryClient]);

  const start = useMutation({
    mutationFn: (p: string) => queueApi.scanStart(p),
    onSuccess: (next) => {
      queryClient.setQueryData(queueKeys.scanStatus, next);
      toast.success('Scan started', next.path);
    },
    onError: (err) => setError(describeError(err, 'Failed to start scan')),
  });
  const cancel = useMutation({
    mutationFn: queueApi.scanCancel,
    onSuccess: (next) => queryClient.setQueryData(queueKeys.scanStatus, next),
    onError: (err) => toast.error('Failed to cancel scan', describeError(err, 'Failed to cancel scan')),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = scanPathError(path);
    setError(problem);
    if (!problem) start.mutate(path.trim());
  };

  const label = s ? scanLabel(s) : 'Idle';
  const pct = s ? scanProgress(s.files_found, s.files_added) : 0;
  return (
    <article className="card" aria-labelledby="scan-title">
      <header className="card__header">
        <h3 className="card__title" id="scan-title">
          <Icon name="files" /> Manual Directory Scan
        </h3>
        <Badge tone={LABEL_TONE[label]}>{label}</Badge>
      </header>
      <form className="scan-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={inputId}>Directory path</label>
          <input
            id={inputId}
            type="text"
            value={path}
            placeholder="/path/to/nzbs"
            autoComplete="off"
            onChange={(e) => {
              setPath(e.target.value);
              setError(undefined);
            }}
            disabled={active}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-err` : undefined}
          />
          {error && (
            <p className="field__error" id={`${inputId}-err`}>
              {error}
            </p>
          )}
        </div>
        {active ? (
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => cancel.mutate()}
            disabled={s?.status === 'canceling' || cancel.isPending}
          >
            {s?.status === 'canceling' ? 'Canceling...' : 'Cancel'}
          </button>
        ) : (
          <button type="submit" className="btn btn--primary" disabled={!path.trim() || start.isPending}>
            Start Scan
          </button>
        )}
      </form>
      {status.isError && (
        <p className="text-error small">{describeError(status.error, 'Failed to load scan status')}</p>
      )}
      {s && (active || s.files_found > 0) && (
        <div className="scan-progress">
          <ProgressBar percent={pct} label="Scan progress" />
          <p className="small muted">
            {s.files_added} of {s.files_found} files added{s.path ? ` from ${s.path}` : ''}
            {s.files_skipped ? ` · ${s.files_skipped} skipped: queued before` : ''}
          </p>
          {active && s.current_file && <p className="small muted scan-progress__file">{s.current_file}</p>}
        </div>
      )}
      {s?.last_error && <p className="text-error small">{s.last_error}</p>}
    </article>
  );
}
