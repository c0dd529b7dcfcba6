import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TargetAddress } from './format.js';
import type { Notice } from './notice.js';
import type { Sender } from './send.js';

/** Waits before each retry of a failed delivery: 2 s, 10 s, then 60 s; after the last, the notice is dropped. */
export const RETRY_DELAYS_MS = [2_000, 10_000, 60_000] as const;

export interface TargetQueueDeps {
  name: string;
  /** The target's address now (the config may change between tries); undefined once the target is gone. */
  address: () => TargetAddress | undefined;
  send: Sender;
  clock: Clock;
  /** How many notices may wait; past it the oldest is dropped (a target down for long). */
  capacity: () => number;
  logger: Logger;
}

/**
 * The notices waiting for one target, sent one at a time in order. `push` only appends and returns: the sending
 * runs on its own (a promise nobody awaits), so a slow, failing or hanging target never holds up whoever
 * pushed. A failed send is retried after RETRY_DELAYS_MS on the injected clock, the notices behind it waiting.
 */
export class TargetQueue {
  private readonly waiting: Notice[] = [];
  private running = false;
  private closed = false;
  private cancelWait: (() => void) | null = null;

  constructor(private readonly d: TargetQueueDeps) {}

  get length(): number {
    return this.waiting.length;
  }

  push(notice: Notice): void {
    if (this.closed) return;
    this.waiting.push(notice);
    const capacity = Math.max(1, this.d.capacity());
    while (this.waiting.length > capacity) {
      const dropped = this.waiting.shift()!;
      this.d.logger.warn('notification dropped: too many waiting for a target', {
        target: this.d.name,
        kind: dropped.kind,
        title: dropped.title,
      });
    }
    if (!this.running) {
      this.running = true;
      void this.drain();
    }
  }

  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.cancelWait?.();
  }

  private async drain(): Promise<void> {
    try {
      for (let next = this.waiting[0]; next && !this.closed; next = this.waiting[0]) {
        await this.deliver(next);
        // The head may have been dropped for capacity while it was being sent: remove it only if still there.
        if (this.waiting[0] === next) this.waiting.shift();
      }
    } finally {
      this.running = false;
    }
  }

  private async deliver(notice: Notice): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const address = this.d.address();
      if (!address || this.closed) return;
      try {
        await this.d.send(address, notice);
        return;
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          this.d.logger.warn('notification not delivered, giving up', {
            target: this.d.name,
            kind: notice.kind,
            attempts: attempt + 1,
            error,
          });
          return;
        }
        this.d.logger.info('notification not delivered, will retry', {
          target: this.d.name,
          kind: notice.kind,
          retry_in_ms: delay,
          error,
        });
        await this.wait(delay);
      }
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.d.clock.schedule(() => {
        this.cancelWait = null;
        resolve();
      }, ms);
      this.cancelWait = () => {
        cancel();
        this.cancelWait = null;
        resolve();
      };
    });
  }
}
