import type { Clock } from '../clock/clock.js';
import type { EventSource, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import type { FetchedBytesStore } from '../streams/fetched-bytes.port.js';
import { PoolTraffic } from '../streams/pool-traffic.js';
import { StreamRegistry } from '../streams/stream-registry.js';
import type { ReadHandles } from '../vfs/read-handle.js';
import { progressOf } from './stream-events.js';

/** How often the bytes fetched per class are written to their store (and at close). */
const TRAFFIC_FLUSH_MS = 60_000;

/** The pool's side of the Streams view: its traffic (fed by the pool's onCommandDone) and its commands per stream. */
export interface StreamsPoolView {
  traffic: PoolTraffic;
  streamCommands(stream: number): number;
}

/**
 * The bytes the pool fetched per class per day (kept in `store`, app/stores.ts) and the providers serving each stream
 * (appliance/streams/pool-traffic.ts). Returns it and the stop, which writes what is not written yet.
 */
export function buildPoolTraffic(
  store: FetchedBytesStore,
  clock: Clock,
  hostOf: (providerId: string) => string | undefined,
  logger: Logger,
): { traffic: PoolTraffic; stop: () => Promise<void> } {
  const traffic = new PoolTraffic({ store, clock, hostOf });
  const flush = () =>
    traffic.flush().catch((err: Error) => logger.error('could not store the bytes fetched', { error: err.message }));
  let cancel = clock.schedule(function tick() {
    void flush();
    cancel = clock.schedule(tick, TRAFFIC_FLUSH_MS);
  }, TRAFFIC_FLUSH_MS);
  return {
    traffic,
    stop: async () => {
      cancel();
      await flush();
    },
  };
}

/**
 * The Streams view's registry (appliance/streams/), fed by the stream events every WebDAV and FUSE read handle
 * announces (app/stream-events.ts), and by the pool (`pool`: connections and providers per stream, bytes fetched
 * per class). Returns it and the unsubscribe.
 */
export function wireStreamRegistry(
  events: EventSource<SpoolEvents>,
  handles: ReadHandles,
  clock: Pick<Clock, 'now'>,
  pool?: StreamsPoolView,
): { registry: StreamRegistry; stop: () => void } {
  const registry = new StreamRegistry({
    clock,
    current: () =>
      handles.snapshots().map((s) => ({
        ...progressOf(s),
        ...(pool ? { connections: pool.streamCommands(s.id), providers: pool.traffic.providersOf(s.id) } : {}),
      })),
    ...(pool ? { fetched: () => pool.traffic.byDay() } : {}),
  });
  // every read handle's fetches carry its class to the pool, which serves players first (docs/nntp.md, "Lanes")
  handles.classifyWith((id, facts) => registry.classOf(String(id), facts));
  const stops = [
    events.on('stream.opened', (e) => registry.opened(e)),
    events.on('stream.progress', (e) => registry.progress(e)),
    events.on('stream.closed', (e) => {
      const id = Number(e.stream_id);
      registry.closed(pool ? { ...e, providers: pool.traffic.providersOf(id) } : e);
      pool?.traffic.forget(id);
    }),
  ];
  return { registry, stop: () => stops.forEach((stop) => stop()) };
}
