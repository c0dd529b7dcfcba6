import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/Badge';
import { Icon } from '../../components/Icon';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { usePoll } from '../../lib/queries';
import { POLL } from '../../lib/queryClient';
import { healthApi } from './healthApi';
import { healthKeys } from './healthKeys';

/** The Health Worker Status card, polled every 5 s while the live channel is down. */
export function WorkerStatusCard() {
  const refetchInterval = usePoll(POLL.stats);
  const worker = useQuery({
    queryKey: healthKeys.worker,
    queryFn: healthApi.workerStatus,
    refetchInterval,
  });
  const w = worker.data;
  const running = w?.status === 'running';
  return (
    <article className="card worker-card" aria-labelledby="card-health-worker">
      <header className="card__header">
        <h3 className="card__title" id="card-health-worker">
          <Icon name="activity" /> Health Worker Status
        </h3>
        {w && <Badge tone={running ? 'success' : 'neutral'}>{running ? 'Running' : 'Stopped'}</Badge>}
      </header>
      {worker.isError && !w ? (
        <p className="text-error">Failed to load worker status</p>
      ) : !w ? (
        <p className="muted">Loading...</p>
      ) : (
        <dl className="metric-list worker-card__figures">
          <div>
            <dt>Manual Checks</dt>
            <dd>{w.pending_manual_checks}</dd>
          </div>
          <div>
            <dt>Files Checked</dt>
            <dd>{w.total_files_checked}</dd>
          </div>
          <div>
            <dt>Corrupted</dt>
            <dd className={w.total_files_corrupted > 0 ? 'text-error' : undefined}>{w.total_files_corrupted}</dd>
          </div>
          <div>
            <dt>Runs</dt>
            <dd>{w.total_runs_completed}</dd>
          </div>
          <div>
            <dt>Last Run</dt>
            <dd title={w.last_run_time ? formatDate(w.last_run_time) : undefined}>
              {formatRelativeTime(w.last_run_time)}
            </dd>
          </div>
        </dl>
      )}
      {w?.repair_paused && (
        <p className="text-warning small">
          Repairs paused: {w.repair_paused_reason ?? 'too many files turned bad at once'}
        </p>
      )}
    </article>
  );
}
