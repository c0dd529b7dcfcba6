/**
 * A provider's connection cap as learned from its refusals (docs/nntp.md, "Connection caps"): an account may allow
 * fewer connections than `max_connections` (a lower plan, or other apps sharing it). A capacity refusal sets the
 * cap to the connections open once every connection then opening has settled, and stops opening past it; after a
 * backoff one connection above it is tried again (a probe), and each one the provider accepts raises the cap, until
 * it reaches max_connections and is forgotten.
 */

/** First wait before probing above a cap with connections open, doubling per refused probe. */
export const CAP_PROBE_BASE_MS = 60_000;
/** First wait when the provider allows no connection at all (requests wait for it), doubling likewise. */
export const CAP_EMPTY_PROBE_BASE_MS = 5_000;
/** The longest wait between probes. */
export const CAP_PROBE_MAX_MS = 10 * 60_000;

/** A change of the learned cap, for the log and the provider state event. */
export interface CapChange {
  /** Connections the provider allows (undefined: max_connections, no cap known). */
  allowed: number | undefined;
  previous: number | undefined;
  /** When the next probe above the cap may go (clock time), if a cap is known. */
  probeAt: number | undefined;
}

export class ProviderCapacity {
  /** Connections the provider allowed when it last refused one (undefined: none refused, max_connections). */
  allowed: number | undefined;
  /** Clock time from which one connection above `allowed` may be tried. */
  probeAt = 0;
  /** Refusals in a row that each set a new probe time (the backoff's exponent); reset by an accepted probe. */
  private refusals = 0;
  /** A capacity refusal came and connections are still opening: the cap is what is open once they settle. */
  private settling = false;
  private refusedInRound = false;

  /**
   * Connections the pool may have open or opening now. While a refusal settles: only those it has. With a cap: the
   * cap, or one more once the probe time came.
   */
  limit(max: number, current: number, now: number): number {
    if (this.settling) return Math.min(max, current);
    if (this.allowed === undefined) return max;
    return Math.min(max, now >= this.probeAt ? this.allowed + 1 : this.allowed);
  }

  /** No connection allowed and the next probe still to come: the provider can serve nothing until `probeAt`. */
  blockedUntil(now: number): number {
    return this.allowed === 0 && !this.settling && now < this.probeAt ? this.probeAt : 0;
  }

  /** A connection was refused for capacity; `settled` tells the cap once nothing else is opening. */
  refused(): void {
    this.settling = true;
    this.refusedInRound = true;
  }

  /**
   * A connection attempt ended (opened or failed) and `open` connections are up, `opening` still on their way.
   * Returns the change of the cap, if any.
   */
  settled(open: number, opening: number, max: number, now: number): CapChange | undefined {
    const previous = this.allowed;
    if (this.settling) {
      if (opening > 0) return undefined;
      this.settling = false;
      if (this.refusedInRound && now >= this.probeAt) {
        this.refusals++;
        const base = open === 0 ? CAP_EMPTY_PROBE_BASE_MS : CAP_PROBE_BASE_MS;
        this.probeAt = now + Math.min(CAP_PROBE_MAX_MS, base * 2 ** Math.min(this.refusals - 1, 20));
      }
      this.refusedInRound = false;
      this.allowed = Math.min(open, max);
    } else if (this.allowed !== undefined && open > this.allowed) {
      // The provider accepted one more than the cap: a probe that worked (another app let go of one).
      this.refusals = 0;
      this.allowed = open >= max ? undefined : open;
    }
    if (this.allowed === previous) return undefined;
    return { allowed: this.allowed, previous, probeAt: this.allowed === undefined ? undefined : this.probeAt };
  }

  /** New connection settings (maybe another account): what was learned no longer holds. */
  reset(): void {
    this.allowed = undefined;
    this.probeAt = 0;
    this.refusals = 0;
    this.settling = false;
    this.refusedInRound = false;
  }
}
