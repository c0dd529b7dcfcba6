import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuth, type AuthDomain, type AuthSettings } from '../auth/index.js';
import { networkPolicy } from '../auth/network-policy.js';
import { systemClock, type Clock } from '../clock/clock.js';
import { ConfigService } from '../config/index.js';
import { EventBus, type SpoolEvents } from '../events/index.js';
import { createDispatcher } from '../http/dispatch.js';
import { Front, type UwsHandler } from '../http/front.js';
import { InflightCounter } from '../http/inflight.js';
import { LiveEndpoint } from '../http/live.js';
import { Router } from '../http/router.js';
import type { RunningServer } from '../http/server.js';
import { createStaticConsole } from '../http/static.js';
import type { ImporterDomain } from '../importer/index.js';
import { LogFile } from '../logging/log-file.js';
import { createLogger, type Logger, type LogLevel } from '../logging/logger.js';
import { NntpPool, quickAckUnavailable } from '../nntp/index.js';
import type { Store } from '../store/index.js';
import { poolArticleSource } from '../vfs/pool-source.js';
import { createArrs, type ArrsDomain } from '../arrs/index.js';
import { wireArticleFailures } from './article-failures.js';
import { createHealth, type HealthDomain } from '../health/index.js';
import { ArrRepairService, type FileRepairer } from '../repair/index.js';
import { wireHealthEvents } from './health-events.js';
import { buildPar2Repair, wireRepairEvents } from './repair.js';
import { wireRepairHistory } from './repair-history.js';
import { createMetrics, wireMetrics } from './metrics.js';
import { buildImporter } from './importer.js';
import { forwardLiveEvents, liveHello } from './live.js';
import { relayLiveEvents } from './live-relay.js';
import { tickPoolMetrics } from './pool-events.js';
import { buildSabnzbd, type SabnzbdDomain } from './sabnzbd.js';
import { registerRoutes } from './routes.js';
import { buildStreaming, type Streaming } from './streaming.js';
import { wireStreamEvents } from './stream-events.js';
import { buildPoolTraffic, wireStreamRegistry } from './streams.js';
import { shareStreams } from './cluster-streams.js';
import { playbackLoad } from './health-playback.js';
import { httpSender, Notifier } from '../notify/index.js';
import { wireNotifications } from './notifications.js';
import { openStores, type SpoolStores } from './stores.js';
import { gateWork, openLeadership, type Leadership } from './leadership.js';
import { nodeIdOf } from './node-id.js';
import { listenToOtherNodes, pauseToOtherNodes } from './cluster-signals.js';

export interface AppOptions {
  /** Data directory (default SPOOL_DATA or ./data). */
  dataDir?: string;
  /** Config file (default SPOOL_CONFIG or <dataDir>/config.yaml; written with defaults on first start). */
  configPath?: string;
  logger?: Logger;
  /** The built console (default <project>/dist/pwa). */
  staticDir?: string;
  /** An already opened config (main.ts opens it first to learn the port); otherwise read from the file. */
  config?: ConfigService;
  /** Overrides `log.level` (SPOOL_LOG_LEVEL, for debugging a config that says otherwise). */
  logLevel?: LogLevel;
  /** How long a stop waits for requests in progress before closing their connections. */
  drainTimeoutMs?: number;
  /** Time for every domain (default the real clock); tests pass a fake one to move time by hand. */
  clock?: Clock;
  /** Replaces the arr repair (tests of the repair loop); by default repair/arr-repair.service.ts. */
  repairer?: FileRepairer;
  /** Kernel read-ahead for the FUSE mount in KiB (main.ts: SPOOL_FUSE_READ_AHEAD_KB); 0 = the kernel's default. */
  fuseReadAheadKb?: number;
  /** A PostgreSQL URL (main.ts: SPOOL_DATABASE_URL) that wins over metadata.database_url (app/stores.ts). */
  databaseUrl?: string;
  /** This node's name in logs and in the leader lease (main.ts: SPOOL_NODE_ID); default host, pid and a random part. */
  nodeId?: string;
  /** The leader lease's timings in ms (tests of a handover shorten them; store/pg/leader-lease.ts). */
  lease?: { retryMs?: number; heartbeatMs?: number };
}

export interface RestartRequest {
  force: boolean;
}

export interface SpoolApp {
  readonly router: Router;
  readonly config: ConfigService;
  /** The node's LMDB environment (`stores.local`). */
  readonly store: Store;
  /** Every storage port, on LMDB or PostgreSQL (app/stores.ts). */
  readonly stores: SpoolStores;
  /** This node's name, and whether it leads (does the background work; always on LMDB). */
  readonly nodeId: string;
  readonly leadership: Leadership;
  readonly auth: AuthDomain;
  /** The virtual tree, the reader, WebDAV locks, the mount, rclone (the importer writes jobs through streaming.vfs). */
  readonly streaming: Streaming;
  /** The import queue, runner and directory scan. */
  readonly importer: ImporterDomain;
  /** Radarr/Sonarr: the connection test. */
  readonly arrs: ArrsDomain;
  /** Repair (appliance/repair): `arr` asks the arr that owns a broken file to replace it. */
  readonly repair: { readonly arr: FileRepairer };
  /** The SABnzbd API (nzo_ids of queue items: the arrs' download ids). */
  readonly sabnzbd: SabnzbdDomain;
  /** File health: records, checks, and the repair loop (PAR2, then repair.arr). */
  readonly health: HealthDomain;
  /** What happens in Spool (appliance/events/spool-events.ts): domains emit, subscribers are wired here. */
  readonly events: EventBus<SpoolEvents>;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly version: string;
  /** The uWS request handler; mount it on a Front (main.ts) or let `start` make one (tests). */
  readonly handler: UwsHandler;
  /** The live channel (`/api/live`, a WebSocket); mounted on the Front beside `handler`. */
  readonly live: LiveEndpoint;
  readonly inflight: InflightCounter;
  /** Resolves when POST /api/system/restart asked for a rebuild (main.ts runs the loop). */
  readonly restartRequested: Promise<RestartRequest>;
  /** Listens on host:port (0 = any free port) with a Front of its own. */
  start(host: string, port: number): Promise<RunningServer>;
  /** Stops accepting, lets requests in progress finish (bounded), then closes every domain and the store. */
  stop(): Promise<void>;
}

/** Something to close on stop, in reverse order of creation (see `closers` below). */
type Closer = () => void | Promise<void>;

const moduleDir = dirname(fileURLToPath(import.meta.url));

/** The folder holding package.json: two levels up from appliance/app/ in dev (tsx), three from dist/appliance/app/. */
export function projectRoot(): string {
  for (const candidate of [resolve(moduleDir, '..', '..'), resolve(moduleDir, '..', '..', '..')]) {
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return process.cwd();
}

function readVersion(root: string): string {
  try {
    return String(
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0',
    );
  } catch {
    return '0.0.0';
  }
}

/**
 * The composition root: builds a whole Spool from its config file (config, store, auth, pool, streaming, importer,
 * every route, the console). Every domain is wired here and only here. Does not listen.
 */
export async function createApp(opts: AppOptions = {}): Promise<SpoolApp> {
  const logger = opts.logger ?? createLogger('spool');
  const clock = opts.clock ?? systemClock;
  const root = projectRoot();
  const closers: Closer[] = [];
  let resolveRestart!: (r: RestartRequest) => void;
  const restartRequested = new Promise<RestartRequest>((r) => (resolveRestart = r));

  const config =
    opts.config ??
    (await ConfigService.open({ configPath: opts.configPath, dataDir: opts.dataDir, logger: logger.child('config') }));
  // One bus per app; the config (opened before the app, main.ts) announces its saves on it as 'config.changed'.
  const events = new EventBus<SpoolEvents>(logger.child('events'));
  closers.push(() => events.clear());
  closers.push(config.on('change', (_next, _prev, paths) => events.emit('config.changed', { paths: [...paths] })));
  // log.*: the level and the rotating file, applied now and again whenever the config changes.
  const logFile = new LogFile(logger, config.dataDir);
  const applyLog = () => logFile.apply(config.get().log, opts.logLevel);
  applyLog();
  events.on('config.changed', applyLog);
  closers.push(() => logFile.close());
  let stores: SpoolStores;
  const nodeId = nodeIdOf(opts.nodeId);
  try {
    stores = await openStores({ config, events, logger, databaseUrl: opts.databaseUrl, nodeId });
  } catch (err) {
    await closeAll(closers, logger);
    throw err;
  }
  closers.push(() => stores.close());
  const store = stores.local;
  try {
    // Background work (imports, the watch folder, health checks, repairs) runs only on the node that leads.
    const lead = openLeadership(stores, nodeId, logger.child('leader'), opts.lease);
    closers.push(lead.close);
    const leadership = lead.leadership;
    const settings = (): AuthSettings => {
      const c = config.get();
      return {
        loginRequired: c.auth.login_required,
        registrationEnabled: c.auth.registration_enabled,
        webdavUser: c.webdav.user,
        webdavPassword: c.webdav.password,
      };
    };
    const auth = createAuth({
      users: stores.users,
      sessions: stores.sessions,
      settings,
      logger: logger.child('auth'),
      rateLimit: { now: clock.now },
    });
    closers.push(() => auth.close());

    // Other domains: build your service here (after the store and auth it may need), push its close() onto
    // `closers`, add it to RouteServices (routes.ts) and its routes to the table there.

    // Prometheus metrics (GET /metrics, docs/metrics.md): the pool reports each command; the rest is read at scrape.
    const metrics = createMetrics(() => ({
      pool,
      handles: streaming.handles,
      importer,
      healthStore,
      clock,
      streams: streams.registry,
      leadership,
    }));
    // NNTP pool (the nntp domain may take this over), then streaming (VFS tree, reader, WebDAV, FUSE, rclone).
    // One connection per primary provider stays open between plays: the first read after a quiet spell would
    // otherwise pay TCP, TLS and AUTHINFO first (docs/nntp.md, Warm pool).
    // what the pool fetched per class per day and who served each stream (the Streams view, appliance/streams/)
    const hostOf = (id: string) => config.get().providers.find((p) => p.id === id)?.host;
    const poolTraffic = buildPoolTraffic(stores.fetchedBytes, clock, hostOf, logger.child('streams'));
    closers.push(poolTraffic.stop);
    const pool = new NntpPool(config.get().providers, {
      logger: logger.child('nntp'),
      onCommandDone: (done) => {
        metrics.commandDone(done);
        poolTraffic.traffic.command(done);
      },
      idleWarmConnections: 1,
      // A learned connection cap changed (docs/nntp.md, "Connection caps"): the provider's state, as the pool has it.
      onCapChange: (id, allowed, max) => {
        const m = pool.metrics().providers.find((p) => p.id === id);
        const state = m?.cooling_down || allowed === 0 ? 'cooling_down' : 'usable';
        const capped = allowed < max ? allowed : null;
        const last_error = m?.last_error ?? null;
        events.emit('provider.state.changed', {
          id,
          state,
          last_error,
          allowed_connections: capped,
          max_connections: max,
        });
      },
    });
    if (quickAckUnavailable)
      logger.warn('provider connections will not ACK at once: slower first bytes on some servers', {
        reason: quickAckUnavailable,
      });
    closers.push(() => pool.close());
    events.on('config.changed', () => pool.updateProviders(config.get().providers));
    // A display tick on real time: a test's ManualClock moving hours ahead need not run thousands of them.
    closers.push(tickPoolMetrics(events, pool, systemClock));
    // All health state lives in the health store; the tree asks its verdicts (listings, reads) and keeps no copy.
    const healthStore = stores.health;
    // PAR2 repair's patches (rebuilt bytes) and kept PAR2 files: the reader serves the patches (docs/health.md).
    const repairStores = { patches: stores.patches, par2Files: stores.par2Files };
    const streaming = buildStreaming({
      patches: repairStores.patches,
      tree: stores.tree,
      sidecars: stores.sidecars,
      health: healthStore.verdicts,
      config,
      logger,
      events,
      source: poolArticleSource(pool),
      fuseReadAheadKb: opts.fuseReadAheadKb,
      clock,
    });
    closers.push(() => streaming.close());
    const par2 = buildPar2Repair({
      stores: repairStores,
      files: streaming.vfs,
      client: pool,
      health: healthStore,
      config,
      logger,
    });
    const importer = buildImporter({
      queue: stores.queue,
      config,
      vfs: streaming.vfs,
      client: pool,
      logger,
      clock,
      events,
      keepPar2: (id, files) => repairStores.par2Files.put(id, files),
      // missing articles the kept PAR2 files cover are rebuilt before the item completes (docs/import.md)
      repair: par2,
      // A release a health verdict found broken is refused at import (docs/health.md, "Broken releases").
      brokenRelease: (fingerprint) => healthStore.ledger.broken(fingerprint),
      onPauseChange: pauseToOtherNodes(stores.pg, logger.child('importer')),
    });
    closers.push(() => importer.close());
    const sabnzbd = await buildSabnzbd({
      importer,
      config,
      vfs: streaming.vfs,
      nzoIds: stores.nzoIds,
      downloadTotals: stores.downloadTotals,
      logger,
      clock,
      pool,
      events,
    });
    closers.push(() => sabnzbd.close());
    const arrs = createArrs({ config });
    // the live view of streams: every WebDAV and FUSE read handle on the bus (stream.opened / progress / closed)
    closers.push(wireStreamEvents(streaming.handles, events));
    const streams = wireStreamRegistry(events, streaming.handles, clock, {
      traffic: poolTraffic.traffic,
      streamCommands: (id) => pool.streamCommands(id),
    }); // the Streams view (appliance/streams/)
    closers.push(streams.stop);
    // several nodes: each lists every node's open streams (shared through PostgreSQL)
    const clusterStreams = shareStreams(stores.pg, nodeId, streams.registry, logger.child('streams'));
    if (clusterStreams) closers.push(() => clusterStreams.stop());
    closers.push(wireMetrics(events, metrics));
    const repairer = opts.repairer ?? new ArrRepairService({ config, logger: logger.child('arrs') });
    closers.push(wireRepairEvents(events, repairStores, logger.child('repair')));
    const health = createHealth({
      par2: () => par2,
      store: healthStore,
      config,
      vfs: streaming.vfs,
      client: pool,
      clock,
      logger,
      repairer: () => repairer,
      events,
      // Scheduled checks yield to players (app/health-playback.ts).
      playback: playbackLoad(streams.registry, pool),
      startWorker: false,
      // A file keeps the id of the queue item that wrote it; its nzo_id is the download id the arr recorded.
      downloadIdOf: (path) => {
        const itemId = streaming.vfs.stat(path)?.queueItemId;
        return itemId === undefined ? undefined : sabnzbd.nzo.of(itemId);
      },
    });
    closers.push(() => health.close());
    closers.push(wireHealthEvents(events, health));
    // Not awaited: a lost lead must stop the imports at once, not after health's reconcile at start.
    const healthWork = { name: 'health', start: () => void health.worker.start(), stop: health.worker.stop };
    closers.push(gateWork(leadership, [importer.background, healthWork], logger.child('leader')).stop);
    // Another node queued an NZB (the runner here claims it if it leads), or paused or resumed imports.
    closers.push(listenToOtherNodes(stores.pg, importer.runner));
    closers.push(wireRepairHistory(events, health, logger.child('health')));
    wireArticleFailures({ events, health, logger: logger.child('vfs') });
    // Notifications: subscribers only hand notices over; each target's queue sends on its own (docs/notifications.md).
    const notifications = () => config.get().notifications;
    const notifier = new Notifier({
      settings: notifications,
      send: httpSender(() => notifications().timeout_seconds * 1000),
      clock,
      logger: logger.child('notify'),
    });
    closers.push(() => notifier.close());
    closers.push(
      wireNotifications({ events, config, notifier, importer, health, clock, logger: logger.child('notify') }),
    );

    const router = new Router();
    const version = readVersion(root);
    registerRoutes(router, {
      config,
      auth,
      logger,
      pool,
      streaming,
      importer,
      arrs,
      sabnzbd,
      health,
      metrics,
      streams: streams.registry,
      clusterStreams,
      notifier,
      requestRestart: (force) => resolveRestart({ force }),
    });

    const staticDir = opts.staticDir ?? join(root, 'dist', 'pwa');
    const consoleFiles = createStaticConsole(staticDir);
    if (!consoleFiles.built) logger.warn('console not built; serving a notice instead', { dir: staticDir });

    const inflight = new InflightCounter();
    const network = networkPolicy(() => config.get().auth);
    const live = new LiveEndpoint({
      gatekeeper: auth.gatekeeper,
      network,
      logger: logger.child('live'),
      hello: () => liveHello(version),
    });
    closers.push(forwardLiveEvents(events, live));
    // several nodes: consoles on this node also see the other nodes' events (never put on this node's bus)
    if (stores.pg) closers.push(relayLiveEvents(events, live, stores.pg, nodeId, logger.child('live')));
    const handler = createDispatcher({
      router,
      gatekeeper: auth.gatekeeper,
      network,
      logger: logger.child('http'),
      fallback: consoleFiles.fallback,
      inflight,
      onDiskFull: (where, error) => events.emit('disk.full', { where, error }),
    });
    let front: Front | null = null;
    let stopping: Promise<void> | null = null;

    return {
      router,
      config,
      store,
      stores,
      nodeId,
      leadership,
      auth,
      streaming,
      importer,
      arrs,
      repair: { arr: repairer },
      sabnzbd,
      health,
      events,
      logger,
      clock,
      version,
      handler,
      live,
      inflight,
      restartRequested,
      async start(host, port) {
        front = new Front();
        const server = await front.listen(host, port);
        front.mount(handler, live);
        logger.info('listening', { host, port: server.port, version });
        return server;
      },
      stop() {
        stopping ??= (async () => {
          front?.stopAccepting();
          live.close();
          const drained = await inflight.idle(opts.drainTimeoutMs ?? 10_000);
          if (!drained) logger.warn('stopping with requests still in progress', { active: inflight.active });
          front?.close();
          await closeAll(closers, logger);
        })();
        return stopping;
      },
    };
  } catch (err) {
    await closeAll(closers, logger);
    throw err;
  }
}

async function closeAll(closers: Closer[], logger: Logger): Promise<void> {
  for (const close of closers.splice(0).reverse()) {
    try {
      await close();
    } catch (err) {
      logger.error('error while closing', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
