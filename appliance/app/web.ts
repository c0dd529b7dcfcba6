import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { networkPolicy } from '../auth/network-policy.js';
import { createDispatcher } from '../http/dispatch.js';
import type { UwsHandler } from '../http/front.js';
import { InflightCounter } from '../http/inflight.js';
import { LiveEndpoint } from '../http/live.js';
import { Router } from '../http/router.js';
import { createStaticConsole } from '../http/static.js';
import { relayLiveEvents } from './cluster/live-relay.js';
import type { AppCore } from './core.js';
import type { Built, Stop } from './lifetime.js';
import { forwardLiveEvents, liveHello } from './live.js';
import { registerRoutes, type RouteServices } from './routes.js';
import type { PreparedRestore } from '../backup/index.js';
import type { RestartRequest } from './spool-app.js';
import type { StreamsView } from './streams.js';

/** The ways in over HTTP: the route table, the request handler, the live channel. */
export interface Web {
  router: Router;
  /** The uWS request handler; mounted on a Front (main.ts) or by `SpoolApp.start` (tests). */
  handler: UwsHandler;
  /** The live channel (`/api/live`, a WebSocket); mounted beside `handler`. */
  live: LiveEndpoint;
  inflight: InflightCounter;
  /** package.json's version (the live channel's hello, GET /api/system/status, the log). */
  version: string;
  /** Resolves when POST /api/system/restart asked for a rebuild (main.ts runs the loop). */
  restartRequested: Promise<RestartRequest>;
}

/** What the routes take besides the core: every capability, the Streams view whole. */
export type WebServices = Omit<RouteServices, 'config' | 'logger' | 'streams' | 'clusterStreams' | 'requestRestart'> & {
  streams: StreamsView;
};

/**
 * Every route (app/routes.ts), the console's files from `staticDir`, the live channel fed by the bus (and, on
 * several nodes, by the other nodes' events, never put on this node's bus), and the dispatcher checking each
 * request's access rule through auth's Gatekeeper.
 */
export function createWeb(
  core: AppCore,
  services: WebServices,
  restart: RestartSignal,
  staticDir?: string,
): Built<Web> {
  const { config, events, logger, stores, nodeId } = core;
  const root = projectRoot();
  const site = { version: readVersion(root), staticDir: staticDir ?? join(root, 'dist', 'pwa') };
  const router = new Router();
  const { streams, ...rest } = services;
  const cluster = { streams: streams.registry, clusterStreams: streams.cluster };
  registerRoutes(router, { ...rest, ...cluster, config, logger, requestRestart: restart.request });
  const consoleFiles = createStaticConsole(site.staticDir);
  if (!consoleFiles.built) logger.warn('console not built; serving a notice instead', { dir: site.staticDir });
  const inflight = new InflightCounter();
  const network = networkPolicy(() => config.get().auth);
  const gatekeeper = services.auth.gatekeeper;
  const live = new LiveEndpoint({
    gatekeeper,
    network,
    logger: logger.child('live'),
    hello: () => liveHello(site.version),
  });
  const stops: Stop[] = [forwardLiveEvents(events, live)];
  if (stores.pg) stops.push(relayLiveEvents(events, live, stores.pg, nodeId, logger.child('live')));
  const handler = createDispatcher({
    router,
    gatekeeper,
    network,
    logger: logger.child('http'),
    fallback: consoleFiles.fallback,
    inflight,
    onDiskFull: (where, error) => events.emit('disk.full', { where, error }),
  });
  const serves = { router, handler, live, inflight, version: site.version, restartRequested: restart.requested };
  return { serves, stops };
}

const moduleDir = dirname(fileURLToPath(import.meta.url));

/** The folder holding package.json: two levels up from appliance/app/ in dev (tsx), three from dist/appliance/app/. */
export function projectRoot(): string {
  for (const candidate of [resolve(moduleDir, '..', '..'), resolve(moduleDir, '..', '..', '..')]) {
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return process.cwd();
}

export function readVersion(root: string = projectRoot()): string {
  try {
    return String(
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0',
    );
  } catch {
    return '0.0.0';
  }
}

export interface RestartSignal {
  requested: Promise<RestartRequest>;
  request(force: boolean): void;
  /** A restore staged and checked: the supervisor swaps it in between the stop and the rebuild. */
  restoreInto(restore: PreparedRestore): void;
}

/** POST /api/system/restart (or a restore) asks for a rebuild; `requested` resolves then, once. */
export function restartSignal(): RestartSignal {
  let resolveRestart!: (r: RestartRequest) => void;
  const requested = new Promise<RestartRequest>((r) => (resolveRestart = r));
  return {
    requested,
    request: (force) => resolveRestart({ force }),
    restoreInto: (restore) => resolveRestart({ force: true, restore }),
  };
}
