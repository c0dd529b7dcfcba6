import type { Logger } from './logger.js';

/** Lines kept: enough for the minutes before a problem, small enough for an issue attachment. */
const KEEP = 2000;

/**
 * The last log lines written, in memory (the support bundle's log.txt): the log goes to stdout unless `log.file`
 * is set, so the process keeps its own tail. Starts empty at every start.
 */
export class RecentLogLines {
  private readonly lines: string[] = [];
  private readonly off: () => void;

  constructor(
    logger: Logger,
    private readonly keep = KEEP,
  ) {
    this.off = logger.onLine((line) => {
      this.lines.push(line);
      if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
    });
  }

  content(): string[] {
    return [...this.lines];
  }

  close(): void {
    this.off();
  }
}
