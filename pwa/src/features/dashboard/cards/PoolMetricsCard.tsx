import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { formatBytes, formatPercent } from '../../../lib/format';
import { usePoolMetrics } from '../../../lib/queries';
import { successRateTone } from '../derive';

/** docs/console-contract.md §9: Error Rate only above 0, Avg Wait Time only above 100 ms (amber above 1000 ms). */
export function PoolMetricsCard() {
  const metrics = usePoolMetrics();
  const m = metrics.data;
  return (
    <article className="card" aria-labelledby="card-pool">
      <header className="card__header">
        <h3 className="card__title" id="card-pool">
          <Icon name="plug" /> Pool Metrics
        </h3>
        {metrics.isFetching && <Spinner size="sm" label="Refreshing pool metrics" />}
      </header>
      {metrics.isError ? (
        <p className="text-error">Failed to load</p>
      ) : !m ? (
        <p className="muted">Loading...</p>
      ) : (
        <dl className="metric-list">
          <div>
            <dt>Active Connections</dt>
            <dd>{m.active_connections}</dd>
          </div>
          <div>
            <dt>Downloaded</dt>
            <dd>{formatBytes(m.total_bytes_downloaded)}</dd>
          </div>
          <div>
            <dt>Success Rate</dt>
            <dd className={`text-${successRateTone(m.command_success_rate_percent)}`}>
              {formatPercent(m.command_success_rate_percent)}
            </dd>
          </div>
          {m.error_rate_percent > 0 && (
            <div>
              <dt>Error Rate</dt>
              <dd className="text-error">{formatPercent(m.error_rate_percent)}</dd>
            </div>
          )}
          {m.acquire_wait_time_ms > 100 && (
            <div>
              <dt>Avg Wait Time</dt>
              <dd className={m.acquire_wait_time_ms > 1000 ? 'text-warning' : undefined}>
                {Math.round(m.acquire_wait_time_ms)} ms
              </dd>
            </div>
          )}
        </dl>
      )}
    </article>
  );
}
