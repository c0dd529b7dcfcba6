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

/** The ways in over HTTP: the route table, the request handler, the live channel. */
export interface Web {
  router: Router;
  /** The uWS request handler; mounted on a Front (main.ts) or by `SpoolApp.start` (tests). */
  handler: UwsHandler;
  /** The live channel (`/api/live`, a WebSocket); mounted beside `handler`. */
  live: LiveEndpoint;
  inflight: InflightCounter;
}

/**
 * Every route (app/routes.ts), the console's files from `staticDir`, the live channel fed by the bus (and, on
 * several nodes, by the other nodes' events, never put on this node's bus), and the dispatcher checking each
 * request's access rule through auth's Gatekeeper.
 */
export function createWeb(
  core: AppCore,
  services: Omit<RouteServices, 'config' | 'logger'>,
  site: { version: string; staticDir: string },
): Built<Web> {
  const { config, events, logger, stores, nodeId } = core;
  const router = new Router();
  registerRoutes(router, { ...services, config, logger });
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
  return { serves: { router, handler, live, inflight }, stops };
}
