import { resolve } from 'node:path';
import { systemClock, type Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { QueueService } from './queue.service.js';
import { ScanService } from './scan.service.js';

export interface WatchSettings {
  /** import.watch_dir: empty turns watching off. */
  watch_dir: string;
  /** import.watch_interval_seconds */
  watch_interval_seconds: number;
}

export interface WatchDir {
  /** Resolves when the tick in progress (if any) has ended. */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * `import.watch_dir`: every `watch_interval_seconds` the folder is walked like a manual scan (its own scan, so the
 * console's scan status stays the operator's) and each NZB whose bytes were never queued is queued. Files are left
 * where they are: the sha256 of each one already queued keeps it from being added twice. Settings are read at each
 * tick, so a change applies at the next one. A missing folder is logged (once per distinct message), never fatal.
 */
export function startWatchDir(
  queue: QueueService,
  settings: () => WatchSettings,
  logger: Logger,
  clock: Clock = systemClock,
): WatchDir {
  const dir = () => settings().watch_dir.trim();
  const scan = new ScanService(queue, logger, () => (dir() ? [resolve(dir())] : []));
  let cancel: () => void = () => undefined;
  let stopped = false;
  let lastProblem = '';
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    const path = dir();
    if (path) {
      try {
        await scan.start(resolve(path));
        await scan.finished();
        lastProblem = '';
      } catch (err) {
        const message = (err as Error).message;
        if (message !== lastProblem) logger.warn('watch folder not scanned', { dir: path, error: message });
        lastProblem = message;
      }
    }
    if (!stopped) cancel = clock.schedule(() => (current = tick()), settings().watch_interval_seconds * 1000);
  };
  current = tick();
  return {
    idle: () => current,
    stop() {
      stopped = true;
      cancel();
      scan.cancel();
    },
  };
}
