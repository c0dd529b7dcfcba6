import { describeError } from '../../api/client';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useHealthStats, useQueueStats } from '../../lib/queries';
import { AttentionAlert } from './cards/AttentionAlert';
import { FileHealthCard } from './cards/FileHealthCard';
import { HealthStatusChart } from './cards/HealthStatusChart';
import { PoolMetricsCard } from './cards/PoolMetricsCard';
import { QueueDistributionChart } from './cards/QueueDistributionChart';
import { QueueStatusCard } from './cards/QueueStatusCard';
import { QueueStatusList } from './cards/QueueStatusList';

/** Spec §8: when either statistics call fails, the Dashboard is an error with a retry that reloads the page. */
function DashboardError({ queueError, healthError }: { queueError: unknown; healthError: unknown }) {
  return (
    <ErrorPanel title="Dashboard unavailable" onRetry={() => window.location.reload()}>
      {queueError ? (
        <p className="panel__message">Failed to load queue statistics: {describeError(queueError, 'unknown error')}</p>
      ) : null}
      {healthError ? (
        <p className="panel__message">
          Failed to load health statistics: {describeError(healthError, 'unknown error')}
        </p>
      ) : null}
    </ErrorPanel>
  );
}

export function DashboardPage() {
  const queue = useQueueStats();
  const health = useHealthStats();

  if (queue.isError || health.isError) {
    return <DashboardError queueError={queue.error} healthError={health.error} />;
  }

  return (
    <div className="dashboard">
      <AttentionAlert failed={queue.data?.total_failed ?? 0} corrupted={health.data?.corrupted ?? 0} />
      <div className="dashboard__row dashboard__row--stats">
        <QueueStatusCard stats={queue.data} />
        <FileHealthCard stats={health.data} />
        <PoolMetricsCard />
      </div>
      <div className="dashboard__row dashboard__row--lists">
        <QueueStatusList stats={queue.data} />
        <QueueDistributionChart stats={queue.data} failed={queue.isError} />
      </div>
      <div className="dashboard__row">
        <HealthStatusChart stats={health.data} failed={health.isError} />
      </div>
    </div>
  );
}
