import type { QueueStats } from '../../../api/types';
import { Badge } from '../../../components/Badge';
import { Icon } from '../../../components/Icon';
import { queueFigures } from '../derive';

export function QueueStatusList({ stats }: { stats: QueueStats | undefined }) {
  const f = stats ? queueFigures(stats) : undefined;
  const rows = [
    { label: 'Queued', value: f?.pending ?? 0, tone: 'warning' as const },
    { label: 'Processing', value: stats?.total_processing ?? 0, tone: 'info' as const },
    { label: 'Completed', value: stats?.total_completed ?? 0, tone: 'success' as const },
    { label: 'Failed', value: stats?.total_failed ?? 0, tone: 'error' as const },
  ];
  return (
    <article className="card" aria-labelledby="card-queue-list">
      <header className="card__header">
        <h3 className="card__title" id="card-queue-list">
          <Icon name="activity" /> Queue Status
        </h3>
      </header>
      <ul className="status-list">
        {rows.map((r) => (
          <li key={r.label}>
            <span>{r.label}</span>
            <Badge tone={r.tone}>{r.value} items</Badge>
          </li>
        ))}
      </ul>
    </article>
  );
}
