import { useHealthStats, useQueueStats } from '../lib/queries';

/** Sidebar/footer counters. They read 0 while the statistics calls fail (e.g. before queue/health exist). */
export function useBadgeCounts() {
  const queue = useQueueStats();
  const health = useHealthStats();
  const q = queue.isError ? undefined : queue.data;
  const h = health.isError ? undefined : health.data;
  return {
    queue: (q?.total_processing ?? 0) + (q?.total_failed ?? 0),
    processing: q?.total_processing ?? 0,
    health: (h?.corrupted ?? 0) + (h?.partial ?? 0),
    corrupted: h?.corrupted ?? 0,
  };
}
