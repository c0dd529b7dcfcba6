import type { QueueStats } from '../../../api/types';
import { Icon } from '../../../components/Icon';
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
      <div
        className="progress"
        role="progressbar"
        aria-valuenow={Math.round(pct)}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label="Queue progress"
      >
        <div className="progress__bar" style={{ width: `${pct}%` }} />
      </div>
      <p className="stat-line">
        {f && stats
          ? `${f.pending} pending, ${stats.total_processing} processing, ${stats.total_failed} failed`
          : 'Loading...'}
      </p>
    </article>
  );
}
