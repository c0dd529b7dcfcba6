import type { QueueStats } from '../../api/types';

/** docs/console-contract.md §3: pending = total_queued − (processing + completed + failed); the total shown excludes pending. */
export function queueFigures(
  s: Pick<QueueStats, 'total_queued' | 'total_processing' | 'total_completed' | 'total_failed'>,
) {
  const shownTotal = s.total_processing + s.total_completed + s.total_failed;
  return {
    pending: Math.max(0, s.total_queued - shownTotal),
    done: s.total_completed + s.total_failed,
    total: shownTotal,
  };
}

/** docs/console-contract.md §9: green at 95 % or more, amber at 90 %, red below. */
export function successRateTone(percent: number): 'success' | 'warning' | 'error' {
  if (percent >= 95) return 'success';
  if (percent >= 90) return 'warning';
  return 'error';
}
