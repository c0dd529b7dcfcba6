import { Cron } from 'croner';
import type { Clock } from '../clock/clock.js';

/** Whether `expr` is a cron expression croner reads (five or six fields), or 'off'. Returns the problem, or null. */
export function cronProblem(expr: string): string | null {
  if (expr === 'off') return null;
  try {
    new Cron(expr, { paused: true });
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The next time `expr` fires after `after` (ms since the epoch, the injected clock's), or null ('off', never). */
export function nextRunAfter(expr: string, after: number): number | null {
  return nextRuns(expr, after, 1)[0] ?? null;
}

/** The next `count` times `expr` fires after `after` (ms since the epoch); none for 'off' or an expression never due. */
export function nextRuns(expr: string, after: number, count: number): number[] {
  if (expr === 'off') return [];
  return new Cron(expr, { paused: true }).nextRuns(count, new Date(after)).map((d) => d.getTime());
}

/**
 * Runs `job` at each time a cron expression names, on the injected clock (so tests move time by hand). The
 * expression is read again before each wait (`reschedule` after a config save). One run at a time: a run still
 * going when the next time comes is not doubled; the wait after it counts from when it ended.
 */
export class CronTimer {
  private cancel: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private nextAt: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly expression: () => string,
    private readonly job: () => Promise<void>,
  ) {}

  get next(): number | null {
    return this.stopped ? null : this.nextAt;
  }

  start(): void {
    this.stopped = false;
    this.reschedule();
  }

  reschedule(): void {
    this.cancel?.();
    this.cancel = null;
    this.nextAt = null;
    if (this.stopped) return;
    const at = nextRunAfter(this.expression(), this.clock.now());
    if (at === null) return;
    this.nextAt = at;
    this.cancel = this.clock.schedule(() => this.fire(), at - this.clock.now());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
  }

  private fire(): void {
    this.cancel = null;
    if (this.stopped || this.running) return;
    this.running = this.job().finally(() => {
      this.running = null;
      this.reschedule();
    });
  }
}
