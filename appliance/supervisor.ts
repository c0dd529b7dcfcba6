import { createApp, type AppOptions, type RestartRequest, type SpoolApp } from './app/create-app.js';
import { join } from 'node:path';
import {
  recordRestoreFailed,
  recoverInterruptedRestore,
  type PreparedRestore,
  type SwappedRestore,
} from './backup/index.js';
import { ConfigService, resolveLocation } from './config/index.js';
import { Front } from './http/front.js';
import { createLogger, type Logger } from './logging/logger.js';

export interface ServeOptions extends AppOptions {
  host: string;
  /** Fixed port (SPOOL_PORT, tests: 0); otherwise webdav.port from the config, re-read on every restart. */
  port?: number;
  /** A restart that failed midway (the old app is gone, the new one did not build). main.ts exits 1. */
  onFatal?: (err: unknown) => void;
}

export interface Supervisor {
  /** The port actually listened on. */
  readonly port: number;
  /** The app serving right now (a new object after each restart). */
  current(): SpoolApp;
  /** Resolves after each completed in-process restart; counts them. */
  readonly restarts: number;
  /** Graceful stop: no new connections, requests in progress finish (bounded), everything closed. */
  stop(): Promise<void>;
}

/**
 * Runs Spool with in-process restarts (POST /api/system/restart): the port opens first and answers 503 while the
 * app is built; a restart re-reads the config file, builds a new app and swaps it in. A config file that became
 * invalid is refused before the old app stops, so a restart never leaves the appliance down.
 * Throws ConfigLoadError (bad file) or a listen error (port busy) from the first start.
 */
export async function serveSpool(opts: ServeOptions): Promise<Supervisor> {
  const logger = opts.logger ?? createLogger('spool');
  const openConfig = () =>
    ConfigService.open({ configPath: opts.configPath, dataDir: opts.dataDir, logger: logger.child('config') });
  const portOf = (config: ConfigService) => opts.port ?? config.get().webdav.port;

  await undoCutShortRestore(opts, logger);
  const firstConfig = await openConfig();
  let front = new Front();
  let port = (await front.listen(opts.host, portOf(firstConfig))).port;
  let app: SpoolApp;
  try {
    app = await createApp({ ...opts, logger, config: firstConfig });
  } catch (err) {
    front.close();
    throw err;
  }
  front.mount(app.handler, app.live);
  logger.info('listening', { host: opts.host, port, version: app.version });

  let stopped = false;
  let restarts = 0;
  let loop: Promise<void> = Promise.resolve();

  /** A restore (app/backups.ts): stop, swap the checked archive in, start into it; put the old state back if it fails. */
  const restartInto = async (restore: PreparedRestore): Promise<void> => {
    logger.info('restarting into a restored backup');
    front.mount(null);
    await app.stop();
    let swapped: SwappedRestore | null = null;
    try {
      swapped = await restore.swap();
      app = await createApp({ ...opts, logger, config: await openConfig() });
      await swapped.keep();
      logger.info('the restored backup serves');
    } catch (err) {
      logger.error('the restored backup did not start; the previous state is back', { error: String(err) });
      await swapped?.undo();
      await restore.failed?.(err instanceof Error ? err.message : String(err));
      app = await createApp({ ...opts, logger, config: await openConfig() });
    } finally {
      await restore.discard();
    }
    front.mount(app.handler, app.live);
    restarts++;
    watch();
  };

  const restart = async (request: RestartRequest): Promise<void> => {
    if (request.restore) return restartInto(request.restore);
    let config: ConfigService;
    try {
      config = await openConfig();
    } catch (err) {
      logger.error('restart refused: the configuration file has errors; the running app stays', { error: String(err) });
      watch();
      return;
    }
    logger.info('restarting');
    front.mount(null);
    await app.stop();
    const wanted = portOf(config);
    if (wanted !== port && wanted !== 0) {
      front.close();
      front = new Front();
      port = (await front.listen(opts.host, wanted)).port;
    }
    app = await createApp({ ...opts, logger, config });
    front.mount(app.handler, app.live);
    restarts++;
    logger.info('restarted', { port });
    watch();
  };

  const watch = () => {
    const current = app;
    void current.restartRequested.then((request) => {
      if (stopped || current !== app) return;
      loop = loop
        .then(() => restart(request))
        .catch((err: unknown) => {
          logger.error('restart failed; stopping', {
            error: err instanceof Error ? (err.stack ?? err.message) : String(err),
          });
          front.close();
          opts.onFatal?.(err);
        });
    });
  };
  watch();

  return {
    get port() {
      return port;
    },
    current: () => app,
    get restarts() {
      return restarts;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await loop;
      front.stopAccepting();
      await app.stop();
      front.close();
    },
  };
}

/**
 * A restore whose swap was cut short (kill -9, power cut) left its journal: the previous files go back before the
 * config is read (backup/restore.service.ts `recoverInterruptedRestore`), and the report says the restore failed.
 */
async function undoCutShortRestore(opts: ServeOptions, logger: Logger): Promise<void> {
  const { dataDir } = resolveLocation({ dataDir: opts.dataDir, configPath: opts.configPath });
  if (!(await recoverInterruptedRestore(join(dataDir, '.restore-staging')))) return;
  logger.error('a restore was cut short during its swap; the previous files are back');
  await recordRestoreFailed(join(dataDir, 'backups'), 'it was cut short during its swap').catch(() => undefined);
}
