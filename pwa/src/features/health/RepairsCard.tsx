import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canAdminister } from '../../auth/authStore';
import { describeError } from '../../api/client';
import { Badge } from '../../components/Badge';
import { Icon } from '../../components/Icon';
import { Pager } from '../../components/Pager';
import { toast } from '../../components/toast';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { usePoll } from '../../lib/queries';
import { POLL } from '../../lib/queryClient';
import { healthApi, REPAIR_PAGE_SIZE, REPAIR_STEP_LABELS, type RepairHistoryEntry } from './healthApi';
import { healthKeys } from './healthKeys';

const RESULT_TONE = { done: 'success', failed: 'error', held: 'warning' } as const;

/** How a repair was made: PAR2 in place, or the arr instance that took it. */
const methodOf = (e: RepairHistoryEntry) =>
  e.method === 'par2' ? 'PAR2' : `arr${e.instance ? ` (${e.instance})` : ''}`;

/**
 * Repairs (docs/console.md, an extension of the contract): the repair brake, with Resume for admins while it is
 * engaged, and the repair history, newest first.
 */
export function RepairsCard() {
  useSignals();
  const isAdmin = canAdminister(auth.value);
  const queryClient = useQueryClient();
  const refetchInterval = usePoll(POLL.stats);
  const [page, setPage] = useState(1);
  const brake = useQuery({ queryKey: healthKeys.brake, queryFn: healthApi.brake, refetchInterval });
  const history = useQuery({
    queryKey: healthKeys.history(page),
    queryFn: ({ signal }) => healthApi.history(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
  const resume = useMutation({
    mutationFn: healthApi.resumeRepairs,
    onSuccess: () => {
      toast.success('Repairs Resumed', 'The repair brake is released; held repairs run now.');
      void queryClient.invalidateQueries({ queryKey: healthKeys.all });
    },
    onError: (err) => toast.error('Failed to resume repairs', describeError(err, 'Failed to resume repairs')),
  });
  const b = brake.data;
  const entries = history.data?.data ?? [];
  return (
    <article className="card repairs-card" aria-labelledby="card-health-repairs">
      <header className="card__header">
        <h3 className="card__title" id="card-health-repairs">
          <Icon name="activity" /> Repairs
        </h3>
        {b && <Badge tone={b.engaged ? 'error' : 'success'}>{b.engaged ? 'Brake engaged' : 'Brake released'}</Badge>}
      </header>
      {b?.engaged && (
        <div className="alert alert--error repairs-card__brake" role="alert">
          <p>
            <strong>Arr repairs are held.</strong> {b.reason}
          </p>
          <p className="small muted" title={formatDate(b.changed_at)}>
            Engaged {formatRelativeTime(b.changed_at)}
          </p>
          {isAdmin ? (
            <button
              type="button"
              className="btn btn--primary btn--sm"
              disabled={resume.isPending}
              onClick={() => resume.mutate()}
            >
              Resume Repairs
            </button>
          ) : (
            <p className="small">An admin can resume repairs once the cause is known.</p>
          )}
        </div>
      )}
      {b && !b.engaged && (
        <p className="small muted">
          Engages when more than {b.percent}% of the files checked within {b.window_minutes} min turn bad.
          {b.released_by ? ` Last resumed by ${b.released_by} ${formatRelativeTime(b.changed_at)}.` : ''}
        </p>
      )}
      {history.isError && !history.data ? (
        <p className="text-error">Failed to load the repair history</p>
      ) : entries.length === 0 ? (
        <p className="empty-state small">No repairs yet</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table repairs-card__history" aria-label="Repair history">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Step</th>
                <th scope="col">Result</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td className="mono small" title={e.file_path}>
                    {e.file_path.split('/').pop()}
                  </td>
                  <td>
                    {REPAIR_STEP_LABELS[e.step]} <span className="small muted">{methodOf(e)}</span>
                  </td>
                  <td title={e.reason ?? undefined}>
                    <Badge tone={RESULT_TONE[e.result]}>{e.result}</Badge>
                    {e.reason && <span className="small muted repairs-card__reason"> {e.reason}</span>}
                  </td>
                  <td title={formatDate(e.at)}>{formatRelativeTime(e.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={page}
            pageSize={REPAIR_PAGE_SIZE}
            total={history.data?.meta.total ?? 0}
            onPage={setPage}
            label="Repair history pages"
          />
        </div>
      )}
    </article>
  );
}
