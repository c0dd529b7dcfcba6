import { useCallback, useEffect, useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canChange } from '../../auth/authStore';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { ListToolbar } from '../../components/ListToolbar';
import { QueryList } from '../../components/QueryList';
import { AutoRefreshControl } from '../../components/AutoRefreshControl';
import { Pager } from '../../components/Pager';
import { useClampedPage, useListState } from '../../components/useListState';
import { useAutoRefresh } from '../../lib/useAutoRefresh';
import { holdLiveUpdates } from '../../lib/liveCache';
import { NARROW, useMediaQuery } from '../../lib/hooks';
import { useQueueStats } from '../../lib/queries';
import { QueueStatTiles } from './QueueStatTiles';
import { QueueTable } from './QueueTable';
import { QUEUE_PAGE_SIZE, QUEUE_STATUSES, queueApi, type QueueStatus } from './queueApi';
import { queueKeys } from './queueKeys';
import { ScanCard } from './ScanCard';
import { UploadCard } from './UploadCard';
import { useQueueActions } from './useQueueActions';
import './queue.css';

/** Queue Management (docs/console-contract.md §2). */
export function QueuePage() {
  const queryClient = useQueryClient();
  const narrow = useMediaQuery(NARROW);
  const { params, page, setPage, status, setStatus, searchText, setSearchText, selection, setSelection } =
    useListState<QueueStatus>();
  const list = useQuery({
    queryKey: queueKeys.list(params),
    queryFn: ({ signal }) => queueApi.list(params, signal),
    placeholderData: keepPreviousData,
  });
  const stats = useQueueStats();
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: queueKeys.all }), [queryClient]);
  const auto = useAutoRefresh(refresh);
  // A paused refresh (a filter has focus) holds the live updates of the list too.
  useEffect(() => (auto.paused ? holdLiveUpdates(queueKeys.lists) : undefined), [auto.paused]);
  const actions = useQueueActions(() => setSelection({}));
  useSignals();
  const readOnly = !canChange(auth.value);
  const rowActions = useMemo(
    () => ({ ...actions.rowActions, pathMax: narrow ? 40 : 50, readOnly }),
    [actions.rowActions, narrow, readOnly],
  );

  const total = list.data?.meta.total ?? 0;
  useClampedPage(page, setPage, QUEUE_PAGE_SIZE, list.data?.meta.total);

  const selectedIds = Object.keys(selection).map(Number);
  const filtered = status !== '' || params.search !== '';
  const s = stats.data;

  return (
    <section className="queue-page" aria-label="Queue Management">
      <div className="page-header">
        <div className="page-header__text">
          <h2>Queue Management</h2>
          <p className="muted">NZBs waiting for, going through, or done with import.</p>
        </div>
        <div className="page-header__actions">
          <AutoRefreshControl state={auto} />
          <button type="button" className="btn btn--secondary" onClick={refresh} disabled={list.isFetching}>
            <Icon name="refresh" size={16} /> Refresh
          </button>
          {!readOnly && s && s.total_completed > 0 && (
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => actions.clear('completed', s.total_completed)}
            >
              Clear Completed
            </button>
          )}
          {!readOnly && s && s.total_failed > 0 && (
            <button type="button" className="btn btn--danger" onClick={() => actions.clear('failed', s.total_failed)}>
              Clear Failed
            </button>
          )}
        </div>
      </div>

      {!readOnly && (
        <div className="queue-cards">
          <ScanCard />
          <UploadCard />
        </div>
      )}

      <QueueStatTiles stats={s} />

      <div className="card list-card">
        <ListToolbar
          search={{
            id: 'queue-search',
            label: 'Search queue',
            placeholder: 'Search NZB files...',
            value: searchText,
            onChange: setSearchText,
          }}
          status={{
            id: 'status-tip',
            label: 'Status filter',
            allLabel: 'All statuses',
            options: QUEUE_STATUSES,
            value: status,
            onChange: setStatus,
          }}
          pauseHandlers={auto.pauseHandlers}
          selected={readOnly ? 0 : selectedIds.length}
          bulk={{
            restartLabel: 'Restart Selected',
            onRestart: () => actions.bulkRestart(selectedIds),
            onDelete: () => actions.bulkDelete(selectedIds),
          }}
        />

        <QueryList
          query={list}
          rowsOf={(d) => d.data}
          loadingText="Loading queue..."
          failText="Failed to load queue"
          emptyText={filtered ? 'No items match your search or filters' : 'Your queue is empty'}
        >
          {(items) => (
            <>
              <QueueTable items={items} selection={selection} onSelectionChange={setSelection} actions={rowActions} />
              <Pager page={page} pageSize={QUEUE_PAGE_SIZE} total={total} onPage={setPage} label="Queue pages" />
            </>
          )}
        </QueryList>
      </div>

      <ConfirmDialog {...actions.confirmDialog} tone="danger" />
    </section>
  );
}
