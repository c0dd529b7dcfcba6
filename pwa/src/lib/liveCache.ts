import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LiveEventMessage } from '../api/types';
import { keys } from './queryKeys';

/** How long invalidations are gathered before the refetch: a burst of events costs one request per list. */
const COALESCE_MS = 100;

/**
 * The query keys each topic's domain makes stale (their active queries refetch); pool metrics ticks replace their
 * data.
 */
const stale = (): Record<string, readonly QueryKey[]> => ({
  queue: [['queue'], ['import', 'scan', 'status']],
  file: [['webdav'], ['files']],
  health: [['health']],
  provider: [keys.poolMetrics],
  mount: [['rclone', 'mount', 'status']],
  stream: [['streams']],
});

/** Lists whose live refetches wait (a filter has focus: the rows must not move under the operator's hands). */
const holds: { prefix: QueryKey; missed: boolean }[] = [];
let current: QueryClient | null = null;

const startsWith = (key: QueryKey, prefix: QueryKey) =>
  prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));

/** Holds live refetches of the queries under `prefix`; the release refetches them if an event came meanwhile. */
export function holdLiveUpdates(prefix: QueryKey): () => void {
  const hold = { prefix, missed: false };
  holds.push(hold);
  return () => {
    holds.splice(holds.indexOf(hold), 1);
    if (hold.missed) void current?.invalidateQueries({ queryKey: prefix });
  };
}

/** Whether a live event may refetch `key` now (noting a miss for a held one). */
function mayRefetch(key: QueryKey): boolean {
  const hold = holds.find((h) => startsWith(key, h.prefix));
  if (hold) hold.missed = true;
  return !hold;
}

export interface LiveCacheUpdater {
  event(msg: LiveEventMessage): void;
  resync(): void;
}

/** Applies live events to the TanStack Query cache (docs/console.md, "Live updates"). */
export function liveCacheUpdater(queryClient: QueryClient): LiveCacheUpdater {
  current = queryClient;
  const byDomain = stale();
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const due = [...pending.values()];
    pending.clear();
    for (const queryKey of due) {
      void queryClient.invalidateQueries({ queryKey, predicate: (q) => mayRefetch(q.queryKey) });
    }
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
      if (msg.topic === 'import.progress') return;
      // asked for only while the Streams screen is open: its open list (rates, bytes, starved) is fetched again
      if (msg.topic === 'stream.progress') return invalidate([keys.openStreams]);
      const domain = msg.topic.split('.')[0] ?? '';
      invalidate(byDomain[domain] ?? []);
    },
    // Coming back after being down: every key a live event may touch is fetched once.
    resync: () => invalidate(Object.values(byDomain).flat()),
  };
}
