/** Fewer checks than this in the window never trip the breaker (one bad file out of two is not a wave). */
export const BREAKER_MIN_FILES = 10;

export interface BreakerSettings {
  /** health.repair_breaker_percent: share of checked files that turned bad. */
  percent: number;
  /** health.repair_breaker_window_minutes. */
  windowMs: number;
}

/**
 * Stops automatic repairs when too many checked files turn bad within a short window: that is an outage or a
 * provider change, not a wave of takedowns, and repairing would make the arrs throw away good releases.
 */
export class RepairBreaker {
  private verdicts: { at: number; bad: boolean }[] = [];

  constructor(private readonly settings: () => BreakerSettings) {}

  record(at: number, bad: boolean): void {
    this.verdicts.push({ at, bad });
    this.trim(at);
  }

  /** Why repairs are paused now, or null when they may run. */
  openReason(now: number): string | null {
    this.trim(now);
    const n = this.verdicts.length;
    if (n < BREAKER_MIN_FILES) return null;
    const bad = this.verdicts.filter((v) => v.bad).length;
    const share = (bad / n) * 100;
    if (share <= this.settings().percent) return null;
    const minutes = Math.round(this.settings().windowMs / 60_000);
    return `${bad} of ${n} files checked in the last ${minutes} min turned bad (${share.toFixed(0)}% > ${this.settings().percent}%): repairs paused; this looks like a provider outage or change, not takedowns`;
  }

  private trim(now: number): void {
    const from = now - this.settings().windowMs;
    if (this.verdicts.length > 0 && this.verdicts[0]!.at < from)
      this.verdicts = this.verdicts.filter((v) => v.at >= from);
  }
}
