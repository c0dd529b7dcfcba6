/**
 * The warm pool's policy: while streams read, keep connections open ahead of need, so that a seek finds idle
 * connections instead of paying a TCP, TLS and AUTHINFO handshake (4-6 round trips on a real provider); and
 * between plays, a few (`idleFloor`, the app keeps 1) so that the first read after a quiet spell does not pay it
 * either. The pool does the opening (`openAhead`, also from the keepalive's tick, which refills a connection the
 * provider dropped); this decides how many and when.
 */
import type { ProviderState } from './provider-state.js';

/** Connections opened ahead of need at once per provider (the warm pool fills up in steps of this). */
const OPENING_AT_ONCE = 2;

/** The longest wait between attempts to open a connection ahead of need. */
export const WARM_BACKOFF_MAX_MS = 10 * 60_000;

/**
 * How long to wait before opening ahead again after `failures` failures in a row: `baseMs`, doubling per failure,
 * at most WARM_BACKOFF_MAX_MS. A refused login or certificate (`permanent`) waits the longest at once: the idle
 * floor must not retry a wrong password every few seconds (providers lock accounts for that); a real request
 * still tries at once, and changing the provider's settings starts over.
 */
export function warmBackoffMs(failures: number, baseMs: number, permanent: boolean): number {
  if (permanent) return WARM_BACKOFF_MAX_MS;
  return Math.min(WARM_BACKOFF_MAX_MS, baseMs * 2 ** Math.max(0, Math.min(failures - 1, 20)));
}

export class WarmPool {
  /** performance.now() of the last stream request: while recent, connections are kept open ahead of need. */
  private lastStreamAt = -Infinity;

  /**
   * @param holdMs how long after the last stream request the streaming floor holds (the pool's maxIdleMs)
   * @param idleFloor connections per enabled primary provider kept open when no stream reads
   */
  constructor(
    private readonly holdMs: number,
    private readonly idleFloor = 0,
  ) {}

  streamRequested(now = performance.now()): void {
    this.lastStreamAt = now;
  }

  /**
   * Connections kept open for a provider: half of max_connections of each enabled primary while streams read (a
   * stream request in the last holdMs); `idleFloor` otherwise (the rest open on demand and close when idle).
   */
  floor(p: ProviderState, now = performance.now()): number {
    if (p.removed || !p.config.enabled || p.config.is_backup_provider) return 0;
    if (now - this.lastStreamAt > this.holdMs) return Math.min(this.idleFloor, p.config.max_connections);
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
