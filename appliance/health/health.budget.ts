import { sleep, type Clock } from '../clock/clock.js';

const HOUR_MS = 3600_000;
/** A bucket holds one minute's worth of its hourly budget: a check may start at once, a burst stays small. */
export const BURST_MS = 60_000;

/**
 * A token bucket on the injected clock: `perHour()` tokens an hour (read live, so a saved setting applies at
 * once), filled continuously, holding at most one minute's worth (BURST_MS). Over any stretch of time T it hands
 * out at most one minute's worth plus perHour x T. It starts full.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;
  private sleepers = 0;

  constructor(
    private readonly clock: Pick<Clock, 'now' | 'schedule'>,
    private readonly perHour: () => number,
  ) {
    this.tokens = this.capacity;
    this.at = clock.now();
  }

  /** The most the bucket holds (at least 1, so any budget lets work through). */
  get capacity(): number {
    return Math.max(1, Math.floor((this.perHour() * BURST_MS) / HOUR_MS));
  }

  /** Takers waiting for tokens now. */
  get waiting(): number {
    return this.sleepers;
  }

  /** What it holds now (below zero after a charge it could not cover). */
  level(): number {
    const now = this.clock.now();
    const rate = this.perHour() / HOUR_MS;
    this.tokens = Math.min(this.capacity, this.tokens + Math.max(0, now - this.at) * rate);
    this.at = now;
    return this.tokens;
  }

  /** Milliseconds until it holds `n` (capped at its capacity); 0 when it does now. */
  waitMs(n: number): number {
    const need = Math.min(n, this.capacity) - this.level();
    if (need <= 0) return 0;
    return Math.ceil(need / (this.perHour() / HOUR_MS));
  }

  /** Takes `n` if it holds them now; false (nothing taken) otherwise. */
  tryTake(n: number): boolean {
    if (this.level() < n) return false;
    this.tokens -= n;
    return true;
  }

  /** Gives back what a check reserved and did not spend. */
  refund(n: number): void {
    this.level();
    this.tokens = Math.min(this.capacity, this.tokens + n);
  }

  /** Takes `n` now whatever it holds (a person's check): the debt delays the scheduled work after it. */
  charge(n: number): void {
    this.level();
    this.tokens -= n;
  }

  /**
   * Takes `n`, waiting on the clock until the bucket holds them; more than it can hold are taken a bucketful at a
   * time. Rejects with the signal's reason when it aborts (what was taken stays spent).
   */
  async take(n: number, signal: AbortSignal): Promise<void> {
    let left = n;
    while (left > 0) {
      signal.throwIfAborted();
      const piece = Math.min(left, this.capacity);
      const wait = this.waitMs(piece);
      if (wait > 0) {
        this.sleepers++;
        try {
          await sleep(this.clock, wait, signal);
        } finally {
          this.sleepers--;
        }
        continue;
      }
      this.tokens -= piece;
      left -= piece;
    }
  }
}

/** What checks may spend: STATs and BODYs (articles fetched whole), each its own bucket. */
export interface HealthBudget {
  stat: TokenBucket;
  body: TokenBucket;
}

export function healthBudget(
  clock: Pick<Clock, 'now' | 'schedule'>,
  perHour: () => { stat: number; body: number },
): HealthBudget {
  return { stat: new TokenBucket(clock, () => perHour().stat), body: new TokenBucket(clock, () => perHour().body) };
}

/** Tokens a scheduled check reserved when it was admitted (HealthRunner), spent before any is taken. */
export interface Reserved {
  stat: number;
  body: number;
}

/**
 * How one check spends the budget. A scheduled one (`reserved` given) spends what it reserved first, then takes
 * tokens and waits for them, so it never sends more than the buckets hold; `close()` gives back what it did not
 * spend. A manual one (no reservation) is charged and runs at once.
 */
export function spender(budget: HealthBudget, reserved?: Reserved) {
  const left = reserved ? { ...reserved } : undefined;
  const spend = (kind: 'stat' | 'body') => async (n: number, signal: AbortSignal) => {
    if (n <= 0) return;
    if (!left) return budget[kind].charge(n);
    const prepaid = Math.min(n, left[kind]);
    left[kind] -= prepaid;
    if (n > prepaid) await budget[kind].take(n - prepaid, signal);
  };
  return {
    stat: spend('stat'),
    body: spend('body'),
    close(): void {
      if (!left) return;
      budget.stat.refund(left.stat);
      budget.body.refund(left.body);
      left.stat = left.body = 0;
    },
  };
}
export type Spender = Pick<ReturnType<typeof spender>, 'stat' | 'body'>;
