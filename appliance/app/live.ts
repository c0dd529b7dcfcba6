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
 * Forwards the live topics (events/live.wire.ts LIVE_TOPICS) from the bus to every live client, as
 * `{type: 'event', topic, data}`; nothing is serialised while no client is connected. Returns the unsubscribe.
 */
export function forwardLiveEvents(events: EventSource<SpoolEvents>, live: LiveEndpoint): () => void {
  const forward = <K extends LiveTopic>(topic: K) =>
    events.on(topic, (data) => {
      if (live.connections === 0) return;
      const wire: LiveEventMap[K] = data; // the bus carries the wire shape (a type error when they part)
      live.broadcast(JSON.stringify({ type: 'event', topic, data: wire } as LiveEventMessage));
    });
  const stops = LIVE_TOPICS.map(forward);
  return () => stops.forEach((stop) => stop());
}
