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
import { logListening } from './http/socket-hold.js';
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
  await undoCutShortRestore(opts, logger);
  const firstConfig = await openConfig();
  const front = new Front();
  const { port, sendBuffer } = await front.listen(opts.host, opts.port ?? firstConfig.get().webdav.port);
  let app: SpoolApp;
  try {
    app = await createApp({ ...opts, logger, config: firstConfig });
  } catch (err) {
    front.close();
    throw err;
  }
  front.mount(app.handler, app.live);
  logListening(logger, { host: opts.host, port, version: app.version }, sendBuffer);
  return new RunningSpool({ ...opts, logger }, openConfig, { front, port, app });
}

/** The app serving and its Front, rebuilt on each restart the app asks for (one at a time, in order). */
class RunningSpool implements Supervisor {
  private front: Front;
  private listening: number;
  private app: SpoolApp;
  private stopped = false;
  private restartCount = 0;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: ServeOptions & { logger: Logger },
    private readonly openConfig: () => Promise<ConfigService>,
    serving: { front: Front; port: number; app: SpoolApp },
  ) {
    ({ front: this.front, port: this.listening, app: this.app } = serving);
    this.watch();
  }

  get port(): number {
    return this.listening;
  }

  get restarts(): number {
    return this.restartCount;
  }

  current(): SpoolApp {
    return this.app;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.loop;
    this.front.stopAccepting();
    await this.app.stop();
    this.front.close();
  }

  /** Waits for the app serving now to ask for a restart, and queues it. */
  private watch(): void {
    const current = this.app;
    const { logger } = this.opts;
    void current.restartRequested.then((request) => {
      if (this.stopped || current !== this.app) return;
      this.loop = this.loop
        .then(() => this.restart(request))
        .catch((err: unknown) => {
          logger.error('restart failed; stopping', {
            error: err instanceof Error ? (err.stack ?? err.message) : String(err),
          });
          this.front.close();
          this.opts.onFatal?.(err);
        });
    });
  }

  private build(config: ConfigService): Promise<SpoolApp> {
    return createApp({ ...this.opts, config });
  }

  private async restart(request: RestartRequest): Promise<void> {
    if (request.restore) return this.restartInto(request.restore);
    const { logger, host } = this.opts;
    let config: ConfigService;
    try {
      config = await this.openConfig();
    } catch (err) {
      logger.error('restart refused: the configuration file has errors; the running app stays', { error: String(err) });
      this.watch();
      return;
    }
    logger.info('restarting');
    this.front.mount(null);
    await this.app.stop();
    const wanted = this.opts.port ?? config.get().webdav.port;
    if (wanted !== this.listening && wanted !== 0) {
      this.front.close();
      this.front = new Front();
      const server = await this.front.listen(host, wanted);
      this.listening = server.port;
      logListening(logger, { host, port: server.port }, server.sendBuffer);
    }
    this.app = await this.build(config);
    this.serve();
    logger.info('restarted', { port: this.listening });
  }

  /** A restore (app/backups.ts): stop, swap the checked archive in, start into it; put the old state back if it fails. */
  private async restartInto(restore: PreparedRestore): Promise<void> {
    const { logger } = this.opts;
    logger.info('restarting into a restored backup');
    this.front.mount(null);
    await this.app.stop();
    let swapped: SwappedRestore | null = null;
    try {
      swapped = await restore.swap();
      this.app = await this.build(await this.openConfig());
      await swapped.keep();
      logger.info('the restored backup serves');
    } catch (err) {
      logger.error('the restored backup did not start; the previous state is back', { error: String(err) });
      await swapped?.undo();
      await restore.failed?.(err instanceof Error ? err.message : String(err));
      this.app = await this.build(await this.openConfig());
    } finally {
      await restore.discard();
    }
    this.serve();
  }

  /** The new app takes the Front's requests, counts as a restart, and is watched for the next. */
  private serve(): void {
    this.front.mount(this.app.handler, this.app.live);
    this.restartCount++;
    this.watch();
  }
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
