/**
 * A small structured logger: one JSON line per event on stdout, level-filtered; with `log.file` set, the same
 * lines also go to a rotating file (log-file.ts).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
  /** Applies to this logger, its parent and every child (they share one state). */
  setLevel(level: LogLevel): void;
  /** Also hands every line to `sink` (the log file), or stops doing so with null. Shared like the level. */
  setSink(sink: ((line: string) => void) | null): void;
  /**
   * Calls `listener` with every warn and error event, whatever the level filter (SABnzbd's `mode=warnings` keeps
   * them, appliance/logging/recent-warnings.ts). Shared like the level; returns the unsubscribe function.
   */
  onWarning(listener: (event: LogEvent) => void): () => void;
  /**
   * Calls `listener` with every line written (after the level filter), for the support bundle's last lines
   * (recent-lines.ts). Shared like the level; returns the unsubscribe function.
   */
  onLine(listener: (line: string) => void): () => void;
}

export interface LogEvent {
  level: 'warn' | 'error';
  scope: string;
  msg: string;
  fields: Record<string, unknown> | undefined;
}

export function createLogger(scope = 'spool', level: LogLevel = 'info', write = defaultWrite): Logger {
  const state: {
    level: LogLevel;
    sink: ((line: string) => void) | null;
    warned: Set<(event: LogEvent) => void>;
    tapped: Set<(line: string) => void>;
  } = { level, sink: null, warned: new Set(), tapped: new Set() };
  const make = (name: string): Logger => {
    const log = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (lvl === 'warn' || lvl === 'error') for (const l of state.warned) l({ level: lvl, scope: name, msg, fields });
      if (ORDER[lvl] < ORDER[state.level]) return;
      const line = JSON.stringify({ t: new Date().toISOString(), level: lvl, scope: name, msg, ...fields });
      write(line);
      state.sink?.(line);
      for (const l of state.tapped) l(line);
    };
    return {
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      child: (s) => make(`${name}.${s}`),
      setLevel: (l) => {
        state.level = l;
      },
      setSink: (sink) => {
        state.sink = sink;
      },
      onWarning: (listener) => {
        state.warned.add(listener);
        return () => state.warned.delete(listener);
      },
      onLine: (listener) => {
        state.tapped.add(listener);
        return () => state.tapped.delete(listener);
      },
    };
  };
  return make(scope);
}

function defaultWrite(line: string): void {
  process.stdout.write(line + '\n');
}

/** For tests: a logger that keeps lines in memory. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger('test', 'debug', (l) => lines.push(l));
  return Object.assign(logger, { lines });
}
