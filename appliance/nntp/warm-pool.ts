/**
 * The warm pool's policy: while streams read, keep connections open ahead of need, so that a seek finds idle
 * connections instead of paying a TCP, TLS and AUTHINFO handshake (4-6 round trips on a real provider). The pool
 * does the opening (`openAhead`); this decides how many and when.
 */
import type { ProviderState } from './provider-state.js';

/** Connections opened ahead of need at once per provider (the warm pool fills up in steps of this). */
const OPENING_AT_ONCE = 2;

export class WarmPool {
  /** performance.now() of the last stream request: while recent, connections are kept open ahead of need. */
  private lastStreamAt = -Infinity;

  /** @param holdMs how long after the last stream request the floor holds (the pool's maxIdleMs) */
  constructor(private readonly holdMs: number) {}

  streamRequested(now = performance.now()): void {
    this.lastStreamAt = now;
  }

  /**
   * Connections kept open for a provider: half of max_connections of each enabled primary while streams read (a
   * stream request in the last holdMs); 0 otherwise (then connections open on demand and close when idle).
   */
  floor(p: ProviderState, now = performance.now()): number {
    if (now - this.lastStreamAt > this.holdMs) return 0;
    if (p.removed || !p.config.enabled || p.config.is_backup_provider) return 0;
    return Math.ceil(p.config.max_connections / 2);
  }

  /**
   * How many connections to open ahead for `p` now. Between transfers only: a handshake costs CPU on both ends,
   * and a reader waiting for an article should not share it with connections nobody needs yet (while every
   * connection is busy, the pool opens more beside the one a request pipelined on anyway). A few at a time, and
   * none beside the first connection a request is waiting for: a burst of handshakes would slow that one, and the
   * later ones resume its TLS session.
   */
  toOpen(p: ProviderState, usable: boolean): number {
    if (!usable || p.link.busy) return 0;
    const waitedFor = p.opening - p.openingAhead;
    const atOnce = p.connections.size > 0 ? OPENING_AT_ONCE : waitedFor > 0 ? 0 : 1;
    return Math.max(0, Math.min(this.floor(p) - p.connectionCount, atOnce - p.openingAhead));
  }
}
