import type { QueueStats } from '../../../api/types';
import { Icon } from '../../../components/Icon';
import { ProgressBar } from '../../../components/ProgressBar';
import { queueFigures } from '../derive';

export function QueueStatusCard({ stats }: { stats: QueueStats | undefined }) {
  const f = stats ? queueFigures(stats) : undefined;
  const pct = f && f.total > 0 ? Math.min(100, (f.done / f.total) * 100) : 0;
  return (
    <article className="card" aria-labelledby="card-queue-status">
      <header className="card__header">
        <h3 className="card__title" id="card-queue-status">
          <Icon name="queue" /> Queue Status
        </h3>
      </header>
      <p className="stat-figure">
        {f ? f.done : '–'} <small>/ {f ? f.total : '–'}</small>
      </p>
      <ProgressBar percent={pct} label="Queue progress" />
      <p className="stat-line">
        {f && stats
          ? `${f.pending} pending, ${stats.total_processing} processing, ${stats.total_failed} failed`
          : 'Loading...'}
      </p>
    </article>
  );
}
