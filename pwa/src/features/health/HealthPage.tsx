import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { auth, canChange } from '../../auth/authStore';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { AutoRefreshControl } from '../../components/AutoRefreshControl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { ListToolbar } from '../../components/ListToolbar';
import { QueryList } from '../../components/QueryList';
import { Pager } from '../../components/Pager';
import { StatTiles } from '../../components/StatTiles';
import { useClampedPage, useListState } from '../../components/useListState';
import { NARROW, useMediaQuery } from '../../lib/hooks';
import { useHealthStats } from '../../lib/queries';
import { POLL } from '../../lib/queryClient';
import { useAutoRefresh } from '../../lib/useAutoRefresh';
import { holdLiveUpdates } from '../../lib/liveCache';
import { useLive } from '../../lib/live';
import { AddHealthCheckDialog } from './AddHealthCheckDialog';
import { HealthTable } from './HealthTable';
import { healthKeys } from './healthKeys';
import {
  HEALTH_PAGE_SIZE,
  HEALTH_STATUSES,
  healthApi,
  type HealthSortBy,
  type HealthStatus,
  type SortOrder,
} from './healthApi';
import { nextSort } from './rules';
import { useHealthActions } from './useHealthActions';
import { RepairsCard } from './RepairsCard';
import { ScheduleCard } from './ScheduleCard';
import { WorkerStatusCard } from './WorkerStatusCard';
import './health.css';

/** Health Monitoring (docs/console.md, Health Monitoring). */
export function HealthPage() {
  const queryClient = useQueryClient();
  useSignals();
  const readOnly = !canChange(auth.value);
  const [params, setParams] = useSearchParams();
  // The contract's default: newest first unless the operator sorts otherwise.
  const [sort, setSort] = useState<{ sortBy: HealthSortBy; sortOrder: SortOrder }>({
    sortBy: 'created_at',
    sortOrder: 'desc',
  });
  const onSort = useCallback((by: HealthSortBy) => setSort((cur) => nextSort(cur, by)), []);
  const {
    params: filters,
    page,
    setPage,
    status,
    setStatus,
    searchText,
    setSearchText,
    selection,
    setSelection,
  } = useListState<HealthStatus>(sort);
  const narrow = useMediaQuery(NARROW);

  const listParams = useMemo(() => ({ ...filters, ...sort }), [filters, sort]);
  const isLive = useLive();
  const list = useQuery({
    queryKey: healthKeys.list(listParams),
    queryFn: ({ signal }) => healthApi.list(listParams, signal),
    placeholderData: keepPreviousData,
    // While a check runs the list follows it every 5 s, auto-refresh or not.
    refetchInterval: (q) => (!isLive && q.state.data?.data.some((r) => r.status === 'checking') ? POLL.stats : false),
  });
  const stats = useHealthStats();
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: healthKeys.all }), [queryClient]);
  const auto = useAutoRefresh(refresh);
  // A paused refresh (a filter has focus) holds the live updates of the list too.
  useEffect(() => (auto.paused ? holdLiveUpdates(healthKeys.lists) : undefined), [auto.paused]);
  const actions = useHealthActions(() => setSelection({}));

  const total = list.data?.meta.total ?? 0;
  useClampedPage(page, setPage, HEALTH_PAGE_SIZE, list.data?.meta.total);

  const selectedPaths = Object.keys(selection);
  const s = stats.data;
  const addOpen = params.has('add');
  const closeAdd = () =>
    setParams(
      (p) => {
        p.delete('add');
        return p;
      },
      { replace: true },
    );

  return (
    <section className="list-page" aria-label="Health Monitoring">
      <div className="page-header">
        <div className="page-header__text">
          <h2>Health Monitoring</h2>
          <p className="muted">Whether every article of every file is still on the providers, and repairs.</p>
        </div>
        <div className="page-header__actions">
          <AutoRefreshControl state={auto} />
          <button type="button" className="btn btn--secondary" onClick={refresh} disabled={list.isFetching}>
            <Icon name="refresh" size={16} /> Refresh
          </button>
          {!readOnly && (
            <button type="button" className="btn btn--secondary" onClick={actions.cleanup}>
              <Icon name="trash" size={16} /> Cleanup Old Records
            </button>
          )}
        </div>
      </div>

      {s && s.corrupted > 0 && (
        <div className="alert alert--error" role="alert">
          <Icon name="alert" />
          <div>
            <p className="alert__title">Corrupted Files Detected</p>
            <p>
              {s.corrupted} file{s.corrupted === 1 ? ' is' : 's are'} corrupted: articles are gone from every provider.
              Trigger a repair to have Radarr or Sonarr fetch a new copy.
            </p>
          </div>
        </div>
      )}

      <div className="health-overview">
        <StatTiles
          label="Health statistics"
          tiles={[
            { label: 'Files Tracked', value: s?.total, tone: 'neutral' },
            { label: 'Pending', value: s?.pending, tone: 'warning' },
            { label: 'Partial', value: s?.partial, tone: 'warning' },
            { label: 'Corrupted', value: s?.corrupted, tone: 'error' },
          ]}
        />
        <WorkerStatusCard />
      </div>
      <ScheduleCard />

      <RepairsCard />

      <div className="card list-card">
        <ListToolbar
          search={{
            id: 'health-search',
            label: 'Search health records',
            placeholder: 'Search file paths...',
            value: searchText,
            onChange: setSearchText,
          }}
          status={{
            id: 'health-status',
            label: 'Status',
            allLabel: 'All',
            options: HEALTH_STATUSES,
            value: status,
            onChange: setStatus,
          }}
          pauseHandlers={auto.pauseHandlers}
          selected={readOnly ? 0 : selectedPaths.length}
          bulk={{
            restartLabel: 'Restart Checks',
            onRestart: () => actions.bulkRestart(selectedPaths),
            onDelete: () => actions.bulkDelete(selectedPaths),
          }}
        />

        <QueryList
          query={list}
          rowsOf={(d) => d.data}
          loadingText="Loading health records..."
          failText="Failed to load health records"
          emptyText="No health records found"
        >
          {(records) => (
            <>
              <HealthTable
                records={records}
                selection={selection}
                onSelectionChange={setSelection}
                actions={readOnly ? { ...actions.rowActions, readOnly } : actions.rowActions}
                sortBy={sort.sortBy}
                sortOrder={sort.sortOrder}
                onSort={onSort}
                textMax={narrow ? 40 : 50}
              />
              <Pager page={page} pageSize={HEALTH_PAGE_SIZE} total={total} onPage={setPage} label="Health pages" />
            </>
          )}
        </QueryList>
      </div>

      <ConfirmDialog {...actions.confirmDialog} tone="danger" />
      {addOpen && <AddHealthCheckDialog onClose={closeAdd} />}
    </section>
  );
}
