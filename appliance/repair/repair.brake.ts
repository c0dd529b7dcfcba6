import type { Clock } from '../clock/clock.js';
import type { EventSink, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import { BRAKE_RELEASED, type BrakeState, type RepairLedger } from './repair-ledger.port.js';

/** Fewer checks than this in the window never engage the brake (one bad file out of two is not a wave). */
export const BRAKE_MIN_FILES = 10;

export interface BrakeSettings {
  /** health.repair_breaker_percent: share of checked files that turned bad. */
  percent: number;
  /** health.repair_breaker_window_minutes. */
  windowMs: number;
}

export interface BrakeDeps {
  ledger: RepairLedger;
  clock: Clock;
  settings: () => BrakeSettings;
  logger: Logger;
  /** Where repair.brake.changed is announced. */
  events?: EventSink<SpoolEvents>;
}

/**
 * The library-wide repair brake (docs/health.md, "The repair brake"): when more than `percent` of the files checked
 * within the window turned bad, that is a provider removed or a backbone that lost a block of articles, not a wave
 * of takedowns, and repairing would make the arrs throw good releases away. It engages, holds every arr repair
 * (no delete, no blocklist, no search) and stays engaged, across restarts, until an admin releases it.
 */
export class RepairBrake {
  private verdicts: { at: number; bad: boolean }[] = [];
  private state: BrakeState = BRAKE_RELEASED;
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly d: BrakeDeps) {}

  /** Reads the kept state (at start, before the first check). */
  async load(): Promise<void> {
    this.state = await this.d.ledger.brake();
  }

  get current(): BrakeState {
    return this.state;
  }

  /** A verdict: engages the brake when the window's share of bad ones passes the setting. */
  record(at: number, bad: boolean): void {
    this.verdicts.push({ at, bad });
    this.trim(at);
    if (this.state.engaged) return;
    const reason = this.overLimit();
    if (reason) this.change({ engaged: true, reason, changedAt: at, releasedBy: null });
  }

  /** Resolves once the state changes so far are kept (tests; shutting down). */
  saved(): Promise<void> {
    return this.writes;
  }

  /** Why arr repairs are held now, or null when they may run. */
  heldReason(): string | null {
    return this.state.engaged ? this.state.reason : null;
  }

  /**
   * An admin releases the brake: repairs run again. The verdicts that engaged it are forgotten, so only a new
   * wave engages it again. Resolves to the state after (unchanged when it was not engaged).
   */
  async release(by: string): Promise<BrakeState> {
    if (this.state.engaged) {
      this.verdicts = [];
      this.change({ engaged: false, reason: null, changedAt: this.d.clock.now(), releasedBy: by });
    }
    await this.writes;
    return this.state;
  }

  private overLimit(): string | null {
    const n = this.verdicts.length;
    if (n < BRAKE_MIN_FILES) return null;
    const bad = this.verdicts.filter((v) => v.bad).length;
    const share = (bad / n) * 100;
    const { percent, windowMs } = this.d.settings();
    if (share <= percent) return null;
    const minutes = Math.round(windowMs / 60_000);
    return `${bad} of ${n} files checked in the last ${minutes} min turned bad (${share.toFixed(0)}% > ${percent}%): repairs paused until an admin resumes them; this looks like a provider outage or change, not takedowns`;
  }

  private change(next: BrakeState): void {
    this.state = next;
    this.d.logger.warn(next.engaged ? 'repair brake engaged' : 'repair brake released', {
      reason: next.reason,
      by: next.releasedBy,
    });
    this.writes = this.writes
      .then(() => this.d.ledger.setBrake(next))
      .catch((err: Error) => this.d.logger.error('could not keep the repair brake state', { error: err.message }));
    this.d.events?.emit('repair.brake.changed', {
      engaged: next.engaged,
      reason: next.reason,
      at: next.changedAt ?? this.d.clock.now(),
      released_by: next.releasedBy,
    });
  }

  private trim(now: number): void {
    const from = now - this.d.settings().windowMs;
    if (this.verdicts.length > 0 && this.verdicts[0]!.at < from)
      this.verdicts = this.verdicts.filter((v) => v.at >= from);
  }
}
