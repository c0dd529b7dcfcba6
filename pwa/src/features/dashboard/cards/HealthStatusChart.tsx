import type { HealthStats } from '../../../api/types';
import { BarChart } from '../../../components/BarChart';
import { Icon } from '../../../components/Icon';

export function HealthStatusChart({ stats, failed }: { stats: HealthStats | undefined; failed: boolean }) {
  return (
    <article className="card" aria-labelledby="card-health-chart">
      <header className="card__header">
        <h3 className="card__title" id="card-health-chart">
          <Icon name="health" /> File Health Status
        </h3>
      </header>
      {failed || !stats ? (
        <div className="chart-area chart-area--message">
          {failed ? 'Failed to load health statistics' : 'Loading...'}
        </div>
      ) : (
        <BarChart
          title="File health status"
          bars={[
            { label: 'Healthy', value: stats.healthy, color: 'var(--chart-completed)' },
            { label: 'Partial', value: stats.partial, color: 'var(--chart-queued)' },
            { label: 'Corrupted', value: stats.corrupted, color: 'var(--chart-failed)' },
          ]}
        />
      )}
    </article>
  );
}
