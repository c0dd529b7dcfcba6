import type { EventSource, SpoolEvents } from '../events/index.js';
import {
  LIVE_TOPICS,
  type LiveEventMap,
  type LiveEventMessage,
  type LiveHello,
  type LiveTopic,
} from '../events/live.wire.js';
import type { LiveEndpoint } from '../http/live.js';

/** The live channel's first message: the version and the topics this server forwards. */
export function liveHello(version: string): string {
  return JSON.stringify({ type: 'hello', version, topics: [...LIVE_TOPICS] } satisfies LiveHello);
}

/**
 * Forwards the live topics (events/live.wire.ts LIVE_TOPICS) from the bus to the live clients that subscribe to
 * them, as `{type: 'event', topic, data}`. The bus is listened to only for topics some client wants, so an event
 * nobody watches (a pool metrics tick, a stream's progress) is not even built. Returns the unsubscribe.
 */
export function forwardLiveEvents(events: EventSource<SpoolEvents>, live: LivePublisher): () => void {
  const listening = new Map<LiveTopic, () => void>();
  const forward = <K extends LiveTopic>(topic: K) =>
    events.on(topic, (data) => {
      const wire: LiveEventMap[K] = data; // the bus carries the wire shape (a type error when they part)
      live.publish(topic, () => JSON.stringify({ type: 'event', topic, data: wire } as LiveEventMessage));
    });
  const stopDemand = live.onDemand((topic, wanted) => {
    if (wanted && !listening.has(topic)) listening.set(topic, forward(topic));
    if (!wanted) {
      listening.get(topic)?.();
      listening.delete(topic);
    }
  });
  return () => {
    stopDemand();
    for (const stop of listening.values()) stop();
    listening.clear();
  };
}

/** What forwarding needs of the live channel (http/live.ts LiveEndpoint). */
export type LivePublisher = Pick<LiveEndpoint, 'publish' | 'onDemand'>;
