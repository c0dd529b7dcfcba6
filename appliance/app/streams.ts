import type { Clock } from '../clock/clock.js';
import type { EventSource, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import type { FetchedBytesStore } from '../streams/fetched-bytes.port.js';
import { PoolTraffic } from '../streams/pool-traffic.js';
import { StreamRegistry } from '../streams/stream-registry.js';
import type { ReadHandles } from '../vfs/read-handle.js';
import type { ClusterStreams } from '../streams/cluster-streams.js';
import { shareStreams } from './cluster/streams.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';
import type { PoolCapability } from './pool.js';
import { progressOf } from './stream-events.js';

/** The Streams view (appliance/streams/): this node's open streams, and on several nodes every node's. */
export interface StreamsView {
  registry: StreamRegistry;
  /** Several nodes only: every node's open streams (app/cluster/streams.ts). */
  cluster?: ClusterStreams;
}

/**
 * The Streams view on the fetched bytes' port: every read handle's stream, its reader class (which the pool's lanes
 * serve by, docs/nntp.md "Lanes"), its connections and providers, the bytes fetched per class per day; on several
 * nodes shared with the others through PostgreSQL.
 */
export function createStreams(core: AppCore, handles: ReadHandles, pool: PoolCapability): Built<StreamsView> {
  const { stores, config, clock, events, nodeId } = core;
  const logger = core.logger.child('streams');
  const hostOf = (id: string) => config.get().providers.find((p) => p.id === id)?.host;
  const poolTraffic = buildPoolTraffic(stores.fetchedBytes, clock, hostOf, logger);
  const offCommands = pool.onCommandDone((done) => poolTraffic.traffic.command(done));
  const streams = wireStreamRegistry(events, handles, clock, {
    traffic: poolTraffic.traffic,
    streamCommands: (id) => pool.pool.streamCommands(id),
  });
  const cluster = shareStreams(stores.pg, nodeId, streams.registry, logger);
  return built({ registry: streams.registry, cluster }, poolTraffic.stop, offCommands, streams.stop, () =>
    cluster?.stop(),
  );
}

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
function buildPoolTraffic(
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
