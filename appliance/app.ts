import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerApiRoutes } from './api/index.js';
import { createAuth, type AuthDomain, type AuthSettings } from './auth/index.js';
import { ConfigService } from './config/index.js';
import { createDispatcher } from './http/dispatch.js';
import { Front, type UwsHandler } from './http/front.js';
import { InflightCounter } from './http/inflight.js';
import { Router } from './http/router.js';
import type { RunningServer } from './http/server.js';
import { createStaticConsole } from './http/static.js';
import { createLogger, type Logger } from './logging/logger.js';
import { openStore, type Store } from './store/index.js';
import { NntpPool } from './nntp/index.js';
import { createStreaming, type StreamingDomain } from './vfs/streaming.domain.js';
import { poolArticleSource } from './vfs/pool-source.js';
import { createImporter, type ImporterDomain } from './importer/index.js';
import { systemClock, type Clock } from './clock/clock.js';
import type { VfsReader, VfsService } from './vfs/index.js';
import { createArrs, type ArrsDomain } from './arrs/index.js';
import { createHealth, registerHealthRoutes, type FileRepairer, type HealthDomain } from './health/index.js';

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
  /** How long a stop waits for requests in progress before closing their connections. */
  drainTimeoutMs?: number;
  /** Time for schedulers (health checks, repair back-off); tests pass a ManualClock. */
  clock?: Clock;
  /** Replaces the arrs' repair (tests of the repair loop); by default the arrs domain's service. */
  repairer?: FileRepairer;
}

export interface RestartRequest {
  force: boolean;
}

export interface SpoolApp {
  readonly router: Router;
  readonly config: ConfigService;
  readonly store: Store;
  readonly auth: AuthDomain;
  /** The virtual tree, the reader and WebDAV locks (the importer writes jobs through streaming.vfs). */
  readonly streaming: StreamingDomain;
  /** The import queue, runner and directory scan. */
  readonly importer: ImporterDomain;
  /** Radarr/Sonarr: the connection test and the repair of broken files (arrs.repair). */
  readonly arrs: ArrsDomain;
  /** File health: records, checks, repair through arrs.repair. */
  readonly health: HealthDomain;
  readonly logger: Logger;
  readonly version: string;
  /** The uWS request handler; mount it on a Front (main.ts) or let `start` make one (tests). */
  readonly handler: UwsHandler;
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

/** The folder holding package.json: one level up from appliance/ in dev (tsx), two from dist/appliance/. */
export function projectRoot(): string {
  for (const candidate of [resolve(moduleDir, '..'), resolve(moduleDir, '..', '..')]) {
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

/** Builds a whole Spool from its config file: config, store, auth, every route, the console. Does not listen. */
export async function createApp(opts: AppOptions = {}): Promise<SpoolApp> {
  const logger = opts.logger ?? createLogger('spool');
  const root = projectRoot();
  const closers: Closer[] = [];
  let resolveRestart!: (r: RestartRequest) => void;
  const restartRequested = new Promise<RestartRequest>((r) => (resolveRestart = r));

  const config =
    opts.config ??
    (await ConfigService.open({ configPath: opts.configPath, dataDir: opts.dataDir, logger: logger.child('config') }));
  const store = openStore({
    rootPath: resolve(config.dataDir, config.get().metadata.root_path),
    logger: logger.child('store'),
  });
  closers.push(() => store.close());
  try {
    const settings = (): AuthSettings => {
      const c = config.get();
      return {
        loginRequired: c.auth.login_required,
        registrationEnabled: c.auth.registration_enabled,
        webdavUser: c.webdav.user,
        webdavPassword: c.webdav.password,
        trustedOrigins: c.auth.trusted_origins,
      };
    };
    const auth = createAuth({ store, settings, logger: logger.child('auth') });
    closers.push(() => auth.close());

    // Other domains: build your service here (after the store and auth it may need), push its close() onto
    // `closers`, and hand it to registerApiRoutes through ApiDeps.

    // NNTP pool (the nntp domain may take this over) and the streaming domain: VFS tree, reader, WebDAV.
    const pool = new NntpPool(config.get().providers, { logger: logger.child('nntp') });
    closers.push(() => pool.close());
    config.on('change', () => pool.updateProviders(config.get().providers));
    const streaming = createStreaming({ store, config, logger, source: poolArticleSource(pool) });
    closers.push(() => streaming.close());
    const importer = createImporter({ store, config, vfs: streaming.vfs, client: pool, logger });
    closers.push(() => importer.close());
    const arrs = createArrs({ config, logger });
    const repairer = opts.repairer ?? arrs.repair;
    const health = createHealth({
      store,
      config,
      vfs: streaming.vfs,
      client: pool,
      clock: opts.clock ?? systemClock,
      logger,
      repairer: () => repairer,
    });
    closers.push(() => health.close());
    wireReadFailures(streaming.reader, streaming.vfs, health, logger.child('vfs'));

    const router = new Router();
    const version = readVersion(root);
    registerApiRoutes(router, {
      config,
      store,
      auth,
      logger,
      pool,
      importer,
      arrs,
      version,
      requestRestart: (force) => resolveRestart({ force }),
    });
    streaming.registerRoutes(router, { unavailable: (path) => health.service.unavailable(path) });
    registerHealthRoutes(router, health);

    const staticDir = opts.staticDir ?? join(root, 'dist', 'pwa');
    const consoleFiles = createStaticConsole(staticDir);
    if (!consoleFiles.built) logger.warn('console not built; serving a notice instead', { dir: staticDir });

    const inflight = new InflightCounter();
    const handler = createDispatcher({
      router,
      gatekeeper: auth.gatekeeper,
      logger: logger.child('http'),
      fallback: consoleFiles.fallback,
      inflight,
    });
    let front: Front | null = null;
    let stopping: Promise<void> | null = null;

    return {
      router,
      config,
      store,
      auth,
      streaming,
      importer,
      arrs,
      health,
      logger,
      version,
      handler,
      inflight,
      restartRequested,
      async start(host, port) {
        front = new Front();
        const server = await front.listen(host, port);
        front.mount(handler);
        logger.info('listening', { host, port: server.port, version });
        return server;
      },
      stop() {
        stopping ??= (async () => {
          front?.stopAccepting();
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

/**
 * A read that could not get an article tells health: 430 everywhere or a bad CRC is evidence (kept on the file's
 * record, so GET /api/files/info shows the segment unavailable, and a check is queued); an outage is only logged.
 */
function wireReadFailures(reader: VfsReader, vfs: VfsService, health: HealthDomain, log: Logger): void {
  reader.on('article-failure', (f) => {
    log.warn('article unavailable', { ...f });
    health.service
      .readFailed(f)
      .catch((err: Error) => log.warn('could not record read evidence', { error: err.message }));
  });
  // An outage is not evidence (docs/streaming.md): logged only, the file's status is left alone.
  reader.on('article-unreachable', (f) => log.warn('article could not be fetched: providers unreachable', { ...f }));
  reader.on('article-recovered', (r) => {
    health.service
      .readRecovered(r.path, r.messageIds)
      .catch((err: Error) => log.warn('could not clear a health mark', { error: err.message }));
    vfs
      .clearMissing(r.path, r.messageIds)
      .catch((err: Error) => log.warn('could not clear a missing mark', { error: err.message }));
  });
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
