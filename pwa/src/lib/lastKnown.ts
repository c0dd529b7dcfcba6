import type { Query, QueryClient } from '@tanstack/react-query';
import type { Paged } from '../api/client';
import type { HealthStats, PoolMetrics, QueueStats } from '../api/types';
import type { HealthRecordJson } from '../../../appliance/health/health.wire';
import type { QueueItemJson } from '../../../appliance/importer/queue.wire';
import { providerKeys } from '../features/config/sections/providers/providerKeys';
import { healthKeys } from '../features/health/healthKeys';
import { queueKeys } from '../features/queue/queueKeys';

/**
 * The last dashboard, queue and health data the server gave, kept in localStorage so the installed console can
 * show it, with its age, when the server cannot be reached (docs/console.md "Offline"). Only these lists and
 * figures are kept, never settings, users or keys; signing out deletes them.
 */
export interface LastKnown {
  /** When the newest part was received (ms since the epoch). */
  savedAt: number;
  queueStats?: QueueStats;
  healthStats?: HealthStats;
  poolMetrics?: PoolMetrics;
  /** The queue's first page, unfiltered. */
  queue?: Paged<QueueItemJson>;
  /** The health list's first page, unfiltered. */
  health?: Paged<HealthRecordJson>;
}

export const LAST_KNOWN_KEY = 'spool.lastKnown';
/** Writes are gathered for this long: a burst of refetches is one write. */
const WRITE_DELAY_MS = 500;

type Part = Exclude<keyof LastKnown, 'savedAt'>;

const unfilteredFirstPage = (p: unknown) => {
  const params = p as { page?: number; status?: string; search?: string } | undefined;
  return params?.page === 1 && !params.status && !params.search;
};

const same = (key: readonly unknown[], exact: readonly unknown[]) =>
  key.length === exact.length && exact.every((part, i) => part === key[i]);
/** The params of a page of `lists` (its key is `[...lists, params]`), or undefined for any other key. */
const pageOf = (key: readonly unknown[], lists: readonly unknown[]) =>
  key.length === lists.length + 1 && lists.every((part, i) => part === key[i]) ? key[lists.length] : undefined;

/** Which part of LastKnown a query's data is, if any (the keys are the features' own: queueKeys, healthKeys, ...). */
export function partOf(key: readonly unknown[]): Part | null {
  if (same(key, queueKeys.stats)) return 'queueStats';
  if (same(key, healthKeys.stats)) return 'healthStats';
  if (same(key, providerKeys.poolMetrics)) return 'poolMetrics';
  if (unfilteredFirstPage(pageOf(key, queueKeys.lists))) return 'queue';
  if (unfilteredFirstPage(pageOf(key, healthKeys.lists))) return 'health';
  return null;
}

export function readLastKnown(storage: Storage | undefined = globalThis.localStorage): LastKnown | null {
  try {
    const raw = storage?.getItem(LAST_KNOWN_KEY);
    const parsed = raw ? (JSON.parse(raw) as LastKnown) : null;
    return parsed && typeof parsed.savedAt === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

/** Each keeper's drop of the answers it has not written yet: clearing must not be undone by a later write. */
const unwritten = new Set<() => void>();

export function clearLastKnown(storage: Storage | undefined = globalThis.localStorage): void {
  for (const drop of unwritten) drop();
  try {
    storage?.removeItem(LAST_KNOWN_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/** Keeps LastKnown up to date from the query cache's successful answers; returns the stop. */
export function keepLastKnown(
  queryClient: QueryClient,
  storage: Storage = localStorage,
  now = Date.now,
  delayMs = WRITE_DELAY_MS,
): () => void {
  const pending = new Map<Part, unknown>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    timer = undefined;
    const next: LastKnown = { ...(readLastKnown(storage) ?? {}), ...Object.fromEntries(pending), savedAt: now() };
    pending.clear();
    try {
      storage.setItem(LAST_KNOWN_KEY, JSON.stringify(next));
    } catch {
      // Full or unavailable: the console works on without it.
    }
  };
  const seen = (query: Query) => {
    const part = partOf(query.queryKey);
    if (!part || query.state.status !== 'success' || query.state.data === undefined) return;
    pending.set(part, query.state.data);
    timer ??= setTimeout(write, delayMs);
  };
  const drop = () => {
    pending.clear();
    clearTimeout(timer);
    timer = undefined;
  };
  unwritten.add(drop);
  const stop = queryClient.getQueryCache().subscribe((e) => {
    if (e.type === 'updated' && e.action.type === 'success') seen(e.query);
  });
  return () => {
    stop();
    drop();
    unwritten.delete(drop);
  };
}
