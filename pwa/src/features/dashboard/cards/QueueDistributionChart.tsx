import type { QueueStats } from '../../../api/types';
import { BarChart } from '../../../components/BarChart';
import { Icon } from '../../../components/Icon';
import { queueFigures } from '../derive';

export function QueueDistributionChart({ stats, failed }: { stats: QueueStats | undefined; failed: boolean }) {
  const f = stats ? queueFigures(stats) : undefined;
  return (
    <article className="card" aria-labelledby="card-queue-chart">
      <header className="card__header">
        <h3 className="card__title" id="card-queue-chart">
          <Icon name="queue" /> Queue Distribution
        </h3>
      </header>
      {failed || !stats || !f ? (
        <div className="chart-area chart-area--message">
          {failed ? 'Failed to load queue statistics' : 'Loading...'}
        </div>
      ) : (
        <BarChart
          title="Queue distribution"
          bars={[
            { label: 'Queued', value: f.pending, color: 'var(--chart-queued)' },
            { label: 'Processing', value: stats.total_processing, color: 'var(--chart-processing)' },
            { label: 'Completed', value: stats.total_completed, color: 'var(--chart-completed)' },
            { label: 'Failed', value: stats.total_failed, color: 'var(--chart-failed)' },
          ]}
        />
      )}
    </article>
  );
}
