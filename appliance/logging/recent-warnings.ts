import type { Clock } from '../clock/clock.js';
import type { LogEvent, Logger } from './logger.js';

/** One entry of SABnzbd's `mode=warnings` list. */
export interface RecentWarning {
  type: 'WARNING' | 'ERROR';
  text: string;
  /** Seconds since the epoch. */
  time: number;
  /** Where it came from: SABnzbd gives the source file and line, Spool the logger's scope ('spool.nntp'). */
  origin: string;
}

/** SABnzbd keeps the last 20. */
const KEEP = 20;
const TEXT_LIMIT = 1000;

/**
 * The last warn/error log events in memory, for SABnzbd's `mode=warnings` and the queue's `have_warnings`
 * (docs/sabnzbd.md). Like SABnzbd's, the list starts empty at every start and `clear` empties it.
 */
export class RecentWarnings {
  private list: RecentWarning[] = [];
  private readonly off: () => void;

  constructor(
    logger: Logger,
    private readonly clock: Clock,
  ) {
    this.off = logger.onWarning((e) => this.add(e));
  }

  content(): RecentWarning[] {
    return [...this.list];
  }

  get count(): number {
    return this.list.length;
  }

  clear(): void {
    this.list = [];
  }

  close(): void {
    this.off();
  }

  private add(e: LogEvent): void {
    if (this.list.length >= KEEP) this.list.shift();
    this.list.push({
      type: e.level === 'warn' ? 'WARNING' : 'ERROR',
      text: render(e).slice(0, TEXT_LIMIT),
      time: Math.floor(this.clock.now() / 1000),
      origin: e.scope,
    });
  }
}

/** The message, then its fields as `key: value` (the fields say which file, provider or error). */
function render(e: LogEvent): string {
  const parts = Object.entries(e.fields ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length > 0 ? `${e.msg} (${parts.join(', ')})` : e.msg;
}
