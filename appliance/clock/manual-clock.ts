import { AsyncResource } from 'node:async_hooks';
import type { Clock } from './clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that moves only when told to (tests): `advance(ms)` runs every timer that falls due, in time order,
 * letting promise callbacks settle between them so work a timer starts can schedule the next one.
 */
export class ManualClock implements Clock {
  private pending: Pending[] = [];
  private seq = 0;

  constructor(private current = Date.now()) {}

  // Bound: callers may pass `clock.now` or `clock.schedule` around detached.
  now = (): number => this.current;

  // Like a real timer, the callback runs in the async context it was scheduled in (the leader's term, for one).
  schedule = (fn: () => void, ms: number): (() => void) => {
    const entry: Pending = { at: this.current + Math.max(0, ms), seq: this.seq++, fn: AsyncResource.bind(fn) };
    this.pending.push(entry);
    return () => {
      this.pending = this.pending.filter((p) => p !== entry);
    };
  };

  /** Timers waiting to run. */
  get timers(): number {
    return this.pending.length;
  }

  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      this.pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.pending[0];
      if (!next || next.at > target) break;
      this.pending.shift();
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = Math.max(this.current, target);
    await settle();
  }
}

/** Lets queued promise callbacks and I/O callbacks of a tick run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
