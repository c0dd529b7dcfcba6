import type { QueueStats } from '../../api/types';
import { queueFigures } from '../dashboard/derive';

/** Stat tiles of spec §2: Total, Pending, Processing, Completed, Failed (pending derived as in §3). */
export function QueueStatTiles({ stats }: { stats: QueueStats | undefined }) {
  const f = stats ? queueFigures(stats) : undefined;
  const tiles = [
    { label: 'Total', value: stats?.total_queued, tone: 'neutral' },
    { label: 'Pending', value: f?.pending, tone: 'warning' },
    { label: 'Processing', value: stats?.total_processing, tone: 'info' },
    { label: 'Completed', value: stats?.total_completed, tone: 'success' },
    { label: 'Failed', value: stats?.total_failed, tone: 'error' },
  ];
  return (
    <dl className="stat-tiles" aria-label="Queue statistics">
      {tiles.map((t) => (
        <div key={t.label} className={`stat-tile stat-tile--${t.tone}`}>
          <dt>{t.label}</dt>
          <dd>{t.value ?? '–'}</dd>
        </div>
      ))}
    </dl>
  );
}
