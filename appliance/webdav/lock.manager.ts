import { randomUUID } from 'node:crypto';
import { isWithin } from '../vfs/path.js';

export interface DavLock {
  token: string;
  path: string;
  /** The lock root as a URL (DAV:lockroot). */
  href: string;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** Serialised <owner> element as the client sent it (echoed in lockdiscovery). */
  owner: string;
  timeoutSeconds: number;
  expiresAt: number;
}

const MAX_TIMEOUT = 7 * 24 * 3600;
const MAX_LOCKS = 10_000;

/**
 * WebDAV locks, in memory: they exist so Windows and macOS clients can write sidecars, and a restart simply
 * drops them (clients refresh or re-lock). Expired locks are pruned on every look-up.
 */
export class LockManager {
  private readonly locks = new Map<string, DavLock>();

  /** Locks whose scope covers `path` (on it, or depth-infinity on an ancestor). */
  covering(path: string): DavLock[] {
    this.prune();
    return [...this.locks.values()].filter(
      (l) => l.path === path || (l.depth === 'infinity' && isWithin(path, l.path)),
    );
  }

  /** Locks on `path` or anywhere beneath it. */
  within(path: string): DavLock[] {
    this.prune();
    return [...this.locks.values()].filter((l) => isWithin(l.path, path));
  }

  /** Null when a conflicting lock exists. */
  create(opts: Omit<DavLock, 'token' | 'expiresAt' | 'timeoutSeconds'> & { timeoutSeconds: number }): DavLock | null {
    const conflicts = [...this.covering(opts.path), ...(opts.depth === 'infinity' ? this.within(opts.path) : [])];
    if (conflicts.some((l) => l.scope === 'exclusive' || opts.scope === 'exclusive')) return null;
    if (this.locks.size >= MAX_LOCKS) return null;
    const timeoutSeconds = Math.min(MAX_TIMEOUT, Math.max(1, opts.timeoutSeconds));
    const lock: DavLock = {
      ...opts,
      token: `opaquelocktoken:${randomUUID()}`,
      timeoutSeconds,
      expiresAt: Date.now() + timeoutSeconds * 1000,
    };
    this.locks.set(lock.token, lock);
    return lock;
  }

  refresh(token: string, timeoutSeconds: number): DavLock | null {
    const lock = this.get(token);
    if (!lock) return null;
    lock.timeoutSeconds = Math.min(MAX_TIMEOUT, Math.max(1, timeoutSeconds));
    lock.expiresAt = Date.now() + lock.timeoutSeconds * 1000;
    return lock;
  }

  get(token: string): DavLock | undefined {
    this.prune();
    return this.locks.get(token);
  }

  release(token: string): boolean {
    return this.locks.delete(token);
  }

  /** Drops locks rooted at or below `path` (after DELETE or MOVE of the resource). */
  releaseWithin(path: string): void {
    for (const l of this.within(path)) this.locks.delete(l.token);
  }

  /**
   * Whether a write to `path` is allowed with the submitted tokens: every lock covering it must be one the
   * client holds. With `deep`, locks below it count too (DELETE or MOVE of a collection).
   */
  canWrite(path: string, tokens: Set<string>, deep = false): boolean {
    const relevant = deep ? [...this.covering(path), ...this.within(path)] : this.covering(path);
    return relevant.every((l) => tokens.has(l.token));
  }

  private prune(): void {
    const now = Date.now();
    for (const [k, l] of this.locks) if (l.expiresAt <= now) this.locks.delete(k);
  }
}

export function parseTimeout(header: string | undefined): number {
  if (!header) return 3600;
  for (const part of header.split(',')) {
    const t = part.trim();
    if (/^infinite$/i.test(t)) return MAX_TIMEOUT;
    const m = /^second-(\d+)$/i.exec(t);
    if (m) return Number(m[1]);
  }
  return 3600;
}
