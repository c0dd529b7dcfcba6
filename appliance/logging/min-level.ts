import type { LogLevel, Logger } from './logger.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A logger that also drops lines below `minLevel()` (read at every line, so a config change applies at once), on
 * top of the process-wide level. For a part with a level of its own: the mount's (`rclone.log_level`).
 */
export function withMinLevel(logger: Logger, minLevel: () => LogLevel): Logger {
  const gate =
    (lvl: LogLevel) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      if (ORDER[lvl] >= ORDER[minLevel()]) logger[lvl](msg, fields);
    };
  return {
    debug: gate('debug'),
    info: gate('info'),
    warn: gate('warn'),
    error: gate('error'),
    child: (scope) => withMinLevel(logger.child(scope), minLevel),
    setLevel: (l) => logger.setLevel(l),
    setSink: (s) => logger.setSink(s),
    onWarning: (listener) => logger.onWarning(listener),
    onLine: (listener) => logger.onLine(listener),
  };
}
