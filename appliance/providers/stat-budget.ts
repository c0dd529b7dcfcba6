import type { Clock } from '../clock/clock.js';

/**
 * The fit report's STAT budget (docs/providers.md, "Fit report"): a token bucket on the injected clock holding at
 * most one hour's STATs, refilled continuously at `perHour`. `take(n)` grants at most what the bucket holds, so
 * over any span of T hours the STATs granted never exceed perHour * (T + 1) (the full bucket plus the refill).
 */
export class StatBudget {
  private tokens: number;
  private at: number;

  /** `full: false` starts empty (a budget replacing another, so a change of rate grants no new hour at once). */
  constructor(
    readonly perHour: number,
    private readonly clock: Pick<Clock, 'now'>,
    full = true,
  ) {
    if (!Number.isInteger(perHour) || perHour < 1) throw new RangeError('perHour must be a whole number from 1');
    this.tokens = full ? perHour : 0;
    this.at = clock.now();
  }

  /** Grants up to `want` STATs now (whole ones), spending them; 0 when the bucket is empty. */
  take(want: number): number {
    this.refill();
    const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(this.tokens)));
    this.tokens -= granted;
    return granted;
  }

  /** Milliseconds until one more STAT is granted (0 when one is available now). */
  msUntilNext(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 3_600_000) / this.perHour);
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.at);
    this.at = now;
    this.tokens = Math.min(this.perHour, this.tokens + (elapsed * this.perHour) / 3_600_000);
  }
}
