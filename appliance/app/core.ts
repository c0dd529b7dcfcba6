import type { Clock } from '../clock/clock.js';
import type { ConfigService } from '../config/index.js';
import { EventBus, type SpoolEvents } from '../events/index.js';
import { LogFile } from '../logging/log-file.js';
import type { Logger, LogLevel } from '../logging/logger.js';
import { built, type Built } from './lifetime.js';
import type { SpoolStores } from './spool-stores.js';
import { openStores } from './stores.js';

/** What every capability builder may take: the config, the bus, the log, time, the storage ports, the node's name. */
export interface AppCore {
  config: ConfigService;
  /** What happens in Spool (appliance/events/spool-events.ts): domains emit, the builders wire subscribers. */
  events: EventBus<SpoolEvents>;
  logger: Logger;
  clock: Clock;
  /** Every storage port, on LMDB or PostgreSQL (app/stores.ts). */
  stores: SpoolStores;
  /** This node's name (app/cluster/node-id.ts). */
  nodeId: string;
}

/** One bus per app; the config (opened before the app, main.ts) announces its saves on it as 'config.changed'. */
export function createBus(config: ConfigService, logger: Logger): Built<EventBus<SpoolEvents>> {
  const events = new EventBus<SpoolEvents>(logger.child('events'));
  const off = config.on('change', (_next, _prev, paths) => events.emit('config.changed', { paths: [...paths] }));
  return built(events, () => events.clear(), off);
}

/** log.*: the level and the rotating file, applied now and again whenever the config changes. */
export function createLogFile(
  config: ConfigService,
  events: EventBus<SpoolEvents>,
  logger: Logger,
  levelOverride?: LogLevel,
): Built<LogFile> {
  const logFile = new LogFile(logger, config.dataDir);
  const apply = () => logFile.apply(config.get().log, levelOverride);
  apply();
  return built(logFile, events.on('config.changed', apply), () => logFile.close());
}

/** Every storage port (app/stores.ts); closed last, after every domain that writes through them. */
export async function createStores(
  opts: { config: ConfigService; events: EventBus<SpoolEvents>; logger: Logger; nodeId: string },
  databaseUrl?: string,
): Promise<Built<SpoolStores>> {
  const stores = await openStores({ ...opts, databaseUrl });
  return built(stores, () => stores.close());
}
