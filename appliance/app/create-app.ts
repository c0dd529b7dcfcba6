import { createArrs } from '../arrs/index.js';
import { systemClock } from '../clock/clock.js';
import { ConfigService } from '../config/index.js';
import { Front } from '../http/front.js';
import { logListening } from '../http/socket-hold.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { ArrRepairService } from '../repair/index.js';
import { createAuth } from './auth.js';
import { createBackground, createLeadership } from './cluster/background.js';
import { nodeIdOf } from './cluster/node-id.js';
import { createBus, createLogFile, createStores, type AppCore } from './core.js';
import { createHealth } from './health.js';
import { createImporter } from './importer.js';
import { Lifetime, built } from './lifetime.js';
import { createMediaServers } from './mediaservers.js';
import { createAvailability } from './availability.js';
import { createDiagnostics } from './diagnostics.js';
import { RecentLogLines } from '../logging/recent-lines.js';
import { projectRoot, readVersion } from './web.js';
import { createFit } from './fit.js';
import { createMetrics } from './metrics.js';
import { createNotifications } from './notifications.js';
import { createPool } from './pool.js';
import { createQuota } from './quota.js';
import { createRepair } from './repair.js';
import { createSabnzbd } from './sabnzbd.js';
import type { AppOptions, SpoolApp } from './spool-app.js';
import { createStreaming } from './streaming.js';
import { createStreamLinks } from './stream-links.js';
import { createStreams } from './streams.js';
import { createWeb, restartSignal } from './web.js';
import { createBackups } from './backups.js';

export type { AppOptions, RestartRequest, SpoolApp } from './spool-app.js';

/**
 * The composition root: builds a whole Spool from its config file. The core first (config, bus, log file, storage
 * ports), then every capability (`buildCapabilities`). Every capability is built by one `create<Capability>`
 * (app/<capability>.ts) taking the core (config, bus, log, time, storage ports) and what the builders before it
 * serve, and returning what it serves and what to stop (app/lifetime.ts); they run in this order, and stop in the
 * reverse. Every domain is wired here and only here. Does not listen.
 */
export async function createApp(opts: AppOptions = {}): Promise<SpoolApp> {
  const logger = opts.logger ?? createLogger('spool');
  const clock = opts.clock ?? systemClock;
  const life = new Lifetime(logger);
  // The support bundle's last log lines, from the first line of the start on.
  const recentLines = new RecentLogLines(logger);
  life.take(built(recentLines, () => recentLines.close()));
  try {
    const config = opts.config ?? (await openConfig(opts, logger));
    const events = life.take(createBus(config, logger));
    life.take(createLogFile(config, events, logger, opts.logLevel));
    const nodeId = nodeIdOf(opts.nodeId);
    const stores = life.take(await createStores({ config, events, logger, nodeId }, opts.databaseUrl));
    const core: AppCore = { config, events, logger, clock, stores, nodeId };
    return runningApp(await buildCapabilities(core, life, opts, recentLines), life, opts.drainTimeoutMs);
  } catch (err) {
    await life.stopAll();
    throw err;
  }
}

/** Every capability on the core, one builder each, in the order they are built (docs/architecture.md). */
async function buildCapabilities(core: AppCore, life: Lifetime, opts: AppOptions, recentLines: RecentLogLines) {
  const { config, logger } = core;
  // Background work (imports, the watch folder, health checks, repairs) runs only on the node that leads.
  const leadership = life.take(createLeadership(core, opts.lease));
  const auth = life.take(createAuth(core));
  const pooled = life.take(createPool(core));
  const pool = pooled.pool;
  const streaming = life.take(createStreaming(core, pool, opts.fuseReadAheadKb));
  const par2 = life.take(createRepair(core, streaming.vfs, pool));
  const links = createStreamLinks(core);
  const strmLink = async (path: string) => (await links.create({ path, createdBy: 'strm' })).url;
  const importer = life.take(createImporter(core, streaming.vfs, pool, par2, strmLink, streaming.probes));
  const arrs = createArrs({ config });
  const streams = life.take(createStreams(core, streaming.handles, pooled));
  const sabnzbd = life.take(await createSabnzbd(core, { importer, vfs: streaming.vfs, pool }));
  const availability = life.take(createAvailability(core, pooled));
  const fit = life.take(createFit(core, pool, streams.registry, () => sabnzbd.totals));
  const quota = life.take(createQuota(core, pooled, sabnzbd.totals));
  const measured = {
    handles: streaming.handles,
    importer,
    streams: streams.registry,
    leadership,
    probes: streaming.probes,
  };
  const metrics = life.take(createMetrics(core, pooled, { ...measured, availability, fit, quota }));
  const repairer = opts.repairer ?? new ArrRepairService({ config, logger: logger.child('arrs') });
  const healthParts = { par2, vfs: streaming.vfs, pool, repairer, streams: streams.registry, sabnzbd };
  const { health, repairs } = life.take(createHealth(core, healthParts));
  life.take(createBackground(core, leadership, importer, health, fit));
  const notifier = life.take(createNotifications(core, importer, health));
  const mediaServers = life.take(createMediaServers(core, notifier));
  const version = readVersion(projectRoot());
  const toolkit = { pool, streaming, metrics, recentLines, version };
  const diagnostics = life.take(createDiagnostics(core, toolkit, opts.diagnostics));
  const restart = restartSignal();
  const library = { vfs: streaming.vfs, pool, health };
  const backupParts = { version, databaseUrl: opts.databaseUrl, restartInto: restart.restoreInto, library };
  const backups = life.take(createBackups(core, leadership, backupParts));
  const routed = {
    auth,
    pool,
    streaming,
    importer,
    arrs,
    sabnzbd,
    health,
    repairs: repairs.control,
    metrics,
    notifier,
  };
  // What the operator runs and reads: media servers, stream links, the providers' worth, diagnostics, backups.
  const operations = { mediaServers, links, availability, quota, diagnostics, fit, backups };
  const web = life.take(createWeb(core, { ...routed, ...operations, streams }, restart, opts.staticDir));
  return { ...core, ...routed, ...operations, ...web, repair: { ...repairs, arr: repairer }, leadership };
}

function openConfig(opts: AppOptions, logger: Logger): Promise<ConfigService> {
  return ConfigService.open({ configPath: opts.configPath, dataDir: opts.dataDir, logger: logger.child('config') });
}

/**
 * The app as its callers hold it: `start` listens with a Front of its own (tests; main.ts mounts `handler` and
 * `live` on its own Front); `stop` stops accepting, lets requests in progress finish (bounded), then stops every
 * capability in the reverse order of building.
 */
function runningApp(
  app: Omit<SpoolApp, 'store' | 'start' | 'stop'>,
  life: Lifetime,
  drainTimeoutMs = 10_000,
): SpoolApp {
  const { logger, handler, live, inflight, version } = app;
  let front: Front | null = null;
  let stopping: Promise<void> | null = null;
  return {
    ...app,
    store: app.stores.local,
    async start(host, port) {
      front = new Front();
      const server = await front.listen(host, port);
      front.mount(handler, live);
      logListening(logger, { host, port: server.port, version }, server.sendBuffer);
      return server;
    },
    stop() {
      stopping ??= (async () => {
        front?.stopAccepting();
        live.close();
        const drained = await inflight.idle(drainTimeoutMs);
        if (!drained) logger.warn('stopping with requests still in progress', { active: inflight.active });
        front?.close();
        await life.stopAll();
      })();
      return stopping;
    },
  };
}
