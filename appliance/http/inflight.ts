/** Counts requests being handled, so a graceful stop can wait for them (bounded by a timeout). */
export class InflightCounter {
  private count = 0;
  private waiters: (() => void)[] = [];

  get active(): number {
    return this.count;
  }

  enter(): void {
    this.count++;
  }

  leave(): void {
    this.count = Math.max(0, this.count - 1);
    if (this.count === 0) for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves true once nothing is in flight, or false when `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }
}
