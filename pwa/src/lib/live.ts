import { computed, signal } from '@preact/signals-react';
import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { LIVE_PATH, liveTopicsWhere, type LiveTopic } from '../api/types';
import { LiveClient, type LiveState } from './liveClient';
import { liveCacheUpdater } from './liveCache';

/** The live channel's state; `live` is true while events arrive (the screens' polling is off then). */
export const liveState = signal<LiveState>('off');
export const live = computed(() => liveState.value === 'live');

/** Whether the live channel is up, for a component's query options (it re-renders when it changes). */
export function useLive(): boolean {
  return useSyncExternalStore(
    (onChange) => live.subscribe(onChange),
    () => live.value,
  );
}

/**
 * Topics every console wants (events/live.wire.ts LIVE_TOPIC_TRAITS); the frequent ones (pool metrics ticks, stream
 * progress) only while a screen asks.
 */
const BASE_TOPICS: LiveTopic[] = liveTopicsWhere((t) => t.console === 'always');
const wanted = new Map<LiveTopic, number>();
let client: LiveClient | null = null;

function topics(): LiveTopic[] {
  return [...new Set([...BASE_TOPICS, ...wanted.keys()])];
}

/** Asks for `topic` while the caller needs it (a mounted card); returns the release. */
export function wantLiveTopic(topic: LiveTopic): () => void {
  wanted.set(topic, (wanted.get(topic) ?? 0) + 1);
  if (wanted.get(topic) === 1) client?.resubscribe();
  return () => {
    const n = (wanted.get(topic) ?? 1) - 1;
    if (n > 0) wanted.set(topic, n);
    else {
      wanted.delete(topic);
      client?.resubscribe();
    }
  };
}

/**
 * Opens the live channel on this origin (the session cookie goes with it) and feeds its events to the query
 * cache; while it is down the screens poll at the contract's intervals. Returns the stop.
 */
export function startLive(queryClient: QueryClient): () => void {
  const apply = liveCacheUpdater(queryClient);
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${LIVE_PATH}`;
  const started = new LiveClient({
    url,
    connect: (u) => new WebSocket(u),
    timers: {
      schedule: (fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      },
    },
    topics,
    onEvent: apply.event,
    onState: (state) => {
      // Coming back: what changed while the channel was down is fetched once.
      if (state === 'live' && liveState.value !== 'live') apply.resync();
      liveState.value = state;
    },
  });
  client = started;
  started.start();
  return () => {
    started.stop();
    if (client === started) client = null;
  };
}
