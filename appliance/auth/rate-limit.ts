import { AppError } from '../errors/app-error.js';

export interface RateLimitOptions {
  maxFailures?: number;
  windowMs?: number;
  now?: () => number;
}

/**
 * Failed-login limiter per client address: after `maxFailures` failures inside `windowMs`, further attempts get
 * 429 until the oldest failure leaves the window. A success clears the address. Memory stays bounded: stale
 * entries are pruned whenever the table grows past a few thousand addresses.
 */
export class LoginRateLimiter {
  private readonly failures = new Map<string, number[]>();
  /** Attempts being verified right now count against the limit, so a burst of parallel guesses cannot slip past. */
  private readonly pending = new Map<string, number>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(opts: RateLimitOptions = {}) {
    this.max = opts.maxFailures ?? 10;
    this.windowMs = opts.windowMs ?? 5 * 60 * 1000;
    this.now = opts.now ?? Date.now;
  }

  /** Throws RATE_LIMITED (details.retry_after_seconds) when `client` has used up its failures. */
  check(client: string): void {
    const recent = this.recent(client);
    if (recent.length + (this.pending.get(client) ?? 0) < this.max) return;
    if (recent.length === 0)
      throw new AppError('RATE_LIMITED', 'Too many login attempts at once. Try again in a moment.', {
        retry_after_seconds: 1,
      });
    const retryAfter = Math.max(1, Math.ceil(((recent[0] as number) + this.windowMs - this.now()) / 1000));
    throw new AppError('RATE_LIMITED', `Too many failed login attempts. Try again in ${retryAfter} seconds.`, {
      retry_after_seconds: retryAfter,
    });
  }

  /**
   * One credential check under the limit: throws RATE_LIMITED first if the client is out of tries, counts the check
   * as pending while it runs, and records a failure when it finds no user. Clearing the client on success is left
   * to the caller (`succeed`), since only the login form does that.
   */
  async attempt<T>(client: string, verify: () => Promise<T | null>): Promise<T | null> {
    this.begin(client);
    let found: T | null;
    try {
      found = await verify();
    } finally {
      this.release(client);
    }
    if (found === null) this.fail(client);
    return found;
  }

  /** Checks the limit and holds a place for one attempt until `release` (call it in a finally). */
  private begin(client: string): void {
    this.check(client);
    this.pending.set(client, (this.pending.get(client) ?? 0) + 1);
  }

  private release(client: string): void {
    const n = (this.pending.get(client) ?? 1) - 1;
    if (n <= 0) this.pending.delete(client);
    else this.pending.set(client, n);
  }

  fail(client: string): void {
    const recent = this.recent(client);
    recent.push(this.now());
    this.failures.set(client, recent);
    if (this.failures.size > 5000) this.prune();
  }

  succeed(client: string): void {
    this.failures.delete(client);
  }

  private recent(client: string): number[] {
    const cutoff = this.now() - this.windowMs;
    return (this.failures.get(client) ?? []).filter((t) => t > cutoff);
  }

  private prune(): void {
    for (const client of [...this.failures.keys()]) {
      const recent = this.recent(client);
      if (recent.length === 0) this.failures.delete(client);
      else this.failures.set(client, recent);
    }
  }
}
