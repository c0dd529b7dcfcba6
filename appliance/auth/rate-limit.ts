import { createHmac, randomBytes } from 'node:crypto';
import { AppError } from '../errors/app-error.js';

export interface RateLimitOptions {
  /** Distinct wrong passwords per name and address inside the window (default 10). */
  maxFailures?: number;
  windowMs?: number;
  /** Names with recent failures per address (default 20); a further name from that address is refused. */
  maxNamesPerClient?: number;
  /** (address, name) pairs remembered at most (default 10 000); past that the least recently failed go first. */
  maxEntries?: number;
  /** The app's clock (`Clock.now`). */
  now?: () => number;
}

/** One name at one address: its recent wrong passwords (keyed hash → when first seen) and checks running now. */
interface Entry {
  wrong: Map<string, number>;
  pending: Map<string, number>;
}

/**
 * Failed-login limiter per name and client address, shared by the login form and every HTTP Basic check.
 *
 * It counts distinct wrong passwords, not failures: behind Docker's userland proxy, NAT or an unlisted reverse
 * proxy every client shares one address, and a player repeating a stale WebDAV password is not guessing. So a
 * password already seen wrong for that name and address answers "wrong" again without counting (and without the
 * slow hash), and the right password still gets through while only such repeats were seen. After `maxFailures`
 * distinct wrong passwords inside `windowMs`, every attempt for that name from that address, the right password
 * included, gets RATE_LIMITED until the oldest leaves the window; an address with failures for `maxNamesPerClient`
 * names cannot try another. Wrong passwords are kept only as HMACs under a key made at start (never in clear, and
 * useless after a restart); memory is capped by `maxEntries` and entries expire by the injected clock.
 */
export class LoginRateLimiter {
  private readonly clients = new Map<string, Map<string, Entry>>();
  private entries = 0;
  private readonly key = randomBytes(32);
  private readonly max: number;
  private readonly windowMs: number;
  private readonly maxNames: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(opts: RateLimitOptions = {}) {
    this.max = opts.maxFailures ?? 10;
    this.windowMs = opts.windowMs ?? 5 * 60 * 1000;
    this.maxNames = opts.maxNamesPerClient ?? 20;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** Throws RATE_LIMITED (details.retry_after_seconds) when `name` at `client` may not try now. */
  check(client: string, name: string): void {
    const names = this.namesOf(client);
    const entry = names?.get(nameKey(name));
    if (!entry) {
      if (names && names.size >= this.maxNames) throw limited(this.retryAfterNames(names));
      return;
    }
    let guesses = entry.wrong.size;
    for (const hash of entry.pending.keys()) if (!entry.wrong.has(hash)) guesses++;
    if (guesses < this.max) return;
    if (entry.wrong.size === 0)
      throw new AppError('RATE_LIMITED', 'Too many login attempts at once. Try again in a moment.', {
        retry_after_seconds: 1,
      });
    throw limited(Math.min(...entry.wrong.values()) + this.windowMs - this.now());
  }

  /**
   * One credential check under the limit: RATE_LIMITED first if `name` at `client` is out of tries; a password
   * already seen wrong answers null without running `verify`; otherwise `verify` runs (counted as a pending guess
   * meanwhile, so a burst of parallel guesses cannot slip past), a null result is recorded as a wrong password and
   * a match clears the name's record at that address.
   */
  async attempt<T>(client: string, name: string, password: string, verify: () => Promise<T | null>): Promise<T | null> {
    this.check(client, name);
    const hash = this.hash(name, password);
    const entry = this.entry(client, name);
    if (entry.wrong.has(hash)) return null;
    entry.pending.set(hash, (entry.pending.get(hash) ?? 0) + 1);
    let found: T | null = null;
    try {
      found = await verify();
    } finally {
      const n = (entry.pending.get(hash) ?? 1) - 1;
      if (n > 0) entry.pending.set(hash, n);
      else entry.pending.delete(hash);
    }
    if (found === null) this.fail(client, name, hash);
    else this.succeed(client, name);
    return found;
  }

  /** Forgets `name`'s failures at `client` (a right password proved who is there). */
  succeed(client: string, name: string): void {
    const names = this.clients.get(client);
    if (names?.delete(nameKey(name))) this.entries--;
    if (names?.size === 0) this.clients.delete(client);
  }

  /** (address, name) pairs remembered now, for tests of the memory bound. */
  get size(): number {
    return this.entries;
  }

  private fail(client: string, name: string, hash: string): void {
    const entry = this.entry(client, name);
    if (!entry.wrong.has(hash)) entry.wrong.set(hash, this.now());
    // The most recently failed address moves to the end: eviction takes the front.
    const names = this.clients.get(client);
    if (names) {
      this.clients.delete(client);
      this.clients.set(client, names);
    }
    if (this.entries > this.maxEntries) this.shrink();
  }

  private hash(name: string, password: string): string {
    return createHmac('sha256', this.key).update(nameKey(name)).update('\0').update(password).digest('base64url');
  }

  /** The client's names with their expired failures dropped (and empty entries removed). */
  private namesOf(client: string): Map<string, Entry> | undefined {
    const names = this.clients.get(client);
    if (!names) return undefined;
    const cutoff = this.now() - this.windowMs;
    for (const [name, entry] of names) {
      for (const [hash, at] of entry.wrong) if (at <= cutoff) entry.wrong.delete(hash);
      if (entry.wrong.size === 0 && entry.pending.size === 0) {
        names.delete(name);
        this.entries--;
      }
    }
    if (names.size > 0) return names;
    this.clients.delete(client);
    return undefined;
  }

  private entry(client: string, name: string): Entry {
    let names = this.clients.get(client);
    if (!names) this.clients.set(client, (names = new Map()));
    let entry = names.get(nameKey(name));
    if (!entry) {
      names.set(nameKey(name), (entry = { wrong: new Map(), pending: new Map() }));
      this.entries++;
    }
    return entry;
  }

  /** Drops what expired; if still too many, the addresses that failed longest ago. */
  private shrink(): void {
    for (const client of [...this.clients.keys()]) this.namesOf(client);
    for (const [client, names] of this.clients) {
      if (this.entries <= this.maxEntries) break;
      this.clients.delete(client);
      this.entries -= names.size;
    }
  }

  /** When the first of the client's names leaves the table (its newest failure leaves the window). */
  private retryAfterNames(names: Map<string, Entry>): number {
    let first = Infinity;
    for (const entry of names.values()) first = Math.min(first, Math.max(0, ...entry.wrong.values()));
    return first + this.windowMs - this.now();
  }
}

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

function limited(ms: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(ms / 1000));
  return new AppError('RATE_LIMITED', `Too many failed login attempts. Try again in ${retryAfter} seconds.`, {
    retry_after_seconds: retryAfter,
  });
}
