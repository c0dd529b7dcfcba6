import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LiveEventMessage } from '../api/types';
import { keys } from './queries';

/** How long invalidations are gathered before the refetch: a burst of events costs one request per list. */
const COALESCE_MS = 100;

/**
 * The query keys each topic's domain makes stale (their active queries refetch); pool metrics ticks replace their
 * data. A function: queries.ts imports this module's user, so its `keys` are read only once both are loaded.
 */
const stale = (): Record<string, readonly QueryKey[]> => ({
  queue: [['queue'], ['import', 'scan', 'status']],
  file: [['webdav'], ['files']],
  health: [['health']],
  provider: [keys.poolMetrics],
  mount: [['rclone', 'mount', 'status']],
  stream: [['streams']],
});

export interface LiveCacheUpdater {
  event(msg: LiveEventMessage): void;
  resync(): void;
}

/** Applies live events to the TanStack Query cache (docs/console.md, "Live updates"). */
export function liveCacheUpdater(queryClient: QueryClient): LiveCacheUpdater {
  const byDomain = stale();
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const stale = [...pending.values()];
    pending.clear();
    for (const queryKey of stale) void queryClient.invalidateQueries({ queryKey });
  };
  const invalidate = (list: readonly QueryKey[]) => {
    for (const key of list) pending.set(JSON.stringify(key), key);
    timer ??= setTimeout(flush, COALESCE_MS);
  };
  return {
    event(msg) {
      if (msg.topic === 'pool.metrics.tick') {
        queryClient.setQueryData(keys.poolMetrics, msg.data);
        return;
      }
      if (msg.topic === 'import.progress' || msg.topic === 'stream.progress') return;
      const domain = msg.topic.split('.')[0] ?? '';
      invalidate(byDomain[domain] ?? []);
    },
    // Coming back after being down: every key a live event may touch is fetched once.
    resync: () => invalidate(Object.values(byDomain).flat()),
  };
}
