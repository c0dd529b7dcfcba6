import type { QueueStats } from '../../api/types';
import { StatTiles } from '../../components/StatTiles';
import { queueFigures } from '../dashboard/derive';

/** Stat tiles of docs/console-contract.md §2: Total, Pending, Processing, Completed, Failed (pending derived as in §3). */
export function QueueStatTiles({ stats }: { stats: QueueStats | undefined }) {
  const f = stats ? queueFigures(stats) : undefined;
  return (
    <StatTiles
      label="Queue statistics"
      tiles={[
        { label: 'Total', value: stats?.total_queued, tone: 'neutral' },
        { label: 'Pending', value: f?.pending, tone: 'warning' },
        { label: 'Processing', value: stats?.total_processing, tone: 'info' },
        { label: 'Completed', value: stats?.total_completed, tone: 'success' },
        { label: 'Failed', value: stats?.total_failed, tone: 'error' },
      ]}
    />
  );
}
