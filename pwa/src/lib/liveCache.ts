import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { LIVE_TOPIC_TRAITS, type LiveEventMessage, type LiveFeature } from '../api/types';
import { configKeys } from '../features/config/configKeys';
import { providerKeys } from '../features/config/sections/providers/providerKeys';
import { filesKeys } from '../features/files/filesKeys';
import { healthKeys } from '../features/health/healthKeys';
import { queueKeys } from '../features/queue/queueKeys';
import { streamsKeys } from '../features/streams/streamsKeys';

/** How long invalidations are gathered before the refetch: a burst of events costs one request per list. */
const COALESCE_MS = 100;

/**
 * The queries each feature a live topic makes stale (events/live.wire.ts LIVE_TOPIC_TRAITS `stale`); their active
 * queries refetch. Pool metrics ticks replace their data instead.
 */
const STALE: Record<LiveFeature, readonly QueryKey[]> = {
  queue: [queueKeys.all],
  files: [filesKeys.all],
  health: [healthKeys.all],
  providers: [providerKeys.all],
  mount: [configKeys.mountStatus],
  streams: [streamsKeys.all],
};

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
        queryClient.setQueryData(providerKeys.poolMetrics, msg.data);
        return;
      }
      // asked for only while the Streams screen is open: its open list (rates, bytes, starved) is fetched again
      if (msg.topic === 'stream.progress') return invalidate([streamsKeys.open]);
      const feature = LIVE_TOPIC_TRAITS[msg.topic].stale;
      if (feature) invalidate(STALE[feature]);
    },
    // Coming back after being down: every key a live event may touch is fetched once.
    resync: () => invalidate(Object.values(STALE).flat()),
  };
}
