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

interface Failure {
  text: string;
  error: unknown;
}

/** When a statistics call fails the Dashboard is an error with a retry that reloads the page. */
function DashboardError({ failures }: { failures: Failure[] }) {
  return (
    <ErrorPanel title="Dashboard unavailable" onRetry={() => window.location.reload()}>
      {failures.map((f) => (
        <p key={f.text} className="panel__message">
          {f.text}: {describeError(f.error, 'unknown error')}
        </p>
      ))}
    </ErrorPanel>
  );
}

export function DashboardPage() {
  const queue = useQueueStats();
  const health = useHealthStats();

  // A statistics call that never answered takes the page (docs/console.md, Dashboard). One that answered before and fails on a later
  // poll keeps its last figures, and the chart areas say 'Failed to load ... statistics' until it recovers.
  const failures: Failure[] = [];
  if (queue.isError && !queue.data) failures.push({ text: 'Failed to load queue statistics', error: queue.error });
  if (health.isError && !health.data) failures.push({ text: 'Failed to load health statistics', error: health.error });
  if (failures.length > 0) return <DashboardError failures={failures} />;

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
