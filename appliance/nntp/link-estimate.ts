/**
 * What the pool knows about the link to one provider, measured from its own traffic: the round trip (command
 * written to first status byte; smoothed as TCP's SRTT for the metrics, and its recent minimum as the base round
 * trip the pipe is sized from), the transfer rate of one connection (article bytes over
 * the time from its status line to its end), the typical article size on the wire, and the provider's delivery
 * rate while it had BODYs in flight (all connections together). From these come the pipeline depth per
 * connection and, for the reader, how many articles a stream keeps in flight (a bandwidth-delay product).
 */

/** Weight of a new sample in the moving averages (TCP's SRTT uses 1/8; a little faster here). */
const GAIN = 0.2;
/** The delivery rate is sampled once this much busy time has gone by, so one short burst does not decide it. */
const RATE_SAMPLE_MS = 50;
/** The base round trip is the least sample seen over this long (as BBR's min_rtt filter). */
const MIN_RTT_WINDOW_MS = 10_000;
const MIN_RTT_SAMPLES = 64;
/** Until a provider served anything, an article is taken to be this big on the wire (768,000 decoded + yEnc). */
export const DEFAULT_ARTICLE_WIRE_BYTES = 790_000;

export class LinkEstimate {
  /** Smoothed round trip in ms (undefined before the first answer): what the metrics show. */
  rttMs: number | undefined;
  private readonly recent: Array<{ at: number; ms: number }> = [];
  private transferBytes = 0;
  private transferMs = 0;
  private articleBytes = 0;
  /** Bytes per ms of the whole provider while busy (undefined before the first sample). */
  deliveryRate: number | undefined;
  private bodies = 0;
  private busySince = 0;
  private busyMs = 0;
  private busyBytes = 0;

  recordRtt(ms: number, now = performance.now()): void {
    this.rttMs = this.rttMs === undefined ? ms : this.rttMs * (1 - GAIN) + ms * GAIN;
    this.recent.push({ at: now, ms });
    if (this.recent.length > MIN_RTT_SAMPLES) this.recent.shift();
  }

  /**
   * The base round trip: the least sample of the last 10 s (or the latest one). Depths and windows are sized from
   * it, not from the smoothed one: under load a sample also holds the time the answer queued behind others (in
   * the server, the link, our own event loop), and sizing the pipe from that would ask for more in flight, which
   * queues longer, which asks for more.
   */
  baseRtt(now = performance.now()): number | undefined {
    let min: number | undefined;
    for (const s of this.recent) if (now - s.at <= MIN_RTT_WINDOW_MS && (min === undefined || s.ms < min)) min = s.ms;
    return min ?? this.recent.at(-1)?.ms;
  }

  /** One BODY's wire bytes and how long its data took to arrive after its status line. */
  recordTransfer(bytes: number, ms: number): void {
    const first = this.articleBytes === 0;
    this.articleBytes = first ? bytes : this.articleBytes * (1 - GAIN) + bytes * GAIN;
    // Bytes and time averaged apart (not their ratio): a tiny article read in one chunk in 0 ms does not count as
    // an infinite rate.
    this.transferBytes = first ? bytes : this.transferBytes * (1 - GAIN) + bytes * GAIN;
    this.transferMs = first ? ms : this.transferMs * (1 - GAIN) + ms * GAIN;
  }

  /** Bytes per ms one connection moves while it transfers an article (undefined before the first BODY). */
  get connectionRate(): number | undefined {
    if (this.articleBytes === 0) return undefined;
    return this.transferBytes / Math.max(this.transferMs, 0.05);
  }

  /** Typical BODY size on the wire. */
  get bodyBytes(): number {
    return this.articleBytes > 0 ? this.articleBytes : DEFAULT_ARTICLE_WIRE_BYTES;
  }

  /** Whether a BODY is in flight on any connection of the provider. */
  get busy(): boolean {
    return this.bodies > 0;
  }

  /** A BODY was sent (the provider is busy from now on if it was not). */
  bodyStarted(now: number): void {
    if (this.bodies++ === 0) this.busySince = now;
  }

  /** A BODY ended; bytes received meanwhile count toward the delivery rate. */
  bodyEnded(now: number): void {
    if (--this.bodies === 0) this.busyMs += now - this.busySince;
    const busy = this.busyMs + (this.bodies > 0 ? now - this.busySince : 0);
    if (busy < RATE_SAMPLE_MS) return;
    const rate = this.busyBytes / busy;
    this.deliveryRate = this.deliveryRate === undefined ? rate : this.deliveryRate * (1 - GAIN) + rate * GAIN;
    this.busyMs = 0;
    this.busyBytes = 0;
    if (this.bodies > 0) this.busySince = now;
  }

  /** Bytes off the wire (counted toward the delivery rate only while a BODY is in flight). */
  addBytes(n: number): void {
    if (this.bodies > 0) this.busyBytes += n;
  }

  /**
   * Whether a round trip takes longer than one article's transfer: then a request is better pipelined behind an
   * article in flight than sent down a new connection (whose handshakes cost 4-6 round trips). False until measured.
   */
  get isLong(): boolean {
    const rtt = this.baseRtt();
    const rate = this.connectionRate;
    return rtt !== undefined && rate !== undefined && rtt > this.bodyBytes / rate;
  }

  /**
   * BODY commands to keep in flight on one connection: enough that the next command reaches the server before it
   * runs out of the articles already asked for, i.e. 1 + round trip / transfer time of one article, within
   * [min, max]. On loopback that is `min`; at 20 ms with ~40 MB/s per connection about 3, at 80 ms about 6.
   */
  pipelineDepth(min: number, max: number): number {
    const rate = this.connectionRate;
    const rtt = this.baseRtt();
    if (rtt === undefined || rate === undefined) return min;
    const transferMs = this.bodyBytes / rate;
    return Math.max(min, Math.min(max, 1 + Math.ceil(rtt / Math.max(transferMs, 0.01))));
  }
}

/** What the pool measured of its providers' links, for sizing a stream's window (appliance/vfs/stream-window.ts). */
export interface LinkFacts {
  /** Base round trip (ms, the recent minimum) of the slowest provider measured so far. */
  rttMs: number;
  /** Bytes per ms the providers delivered while busy, together. */
  deliveryRate: number;
  /** Typical article size on the wire. */
  bodyBytes: number;
  /** BODYs the providers can have in flight at once (connections x pipeline depth). */
  capacity: number;
}

/** The providers' links as one (undefined until one of them answered a BODY). */
export function combineLinks<P extends { link: LinkEstimate }>(
  providers: P[],
  capacityOf: (p: P) => number,
): LinkFacts | undefined {
  const measured = providers.filter((p) => p.link.baseRtt() !== undefined && p.link.deliveryRate !== undefined);
  if (measured.length === 0) return undefined;
  return {
    rttMs: Math.max(...measured.map((p) => p.link.baseRtt()!)),
    deliveryRate: measured.reduce((sum, p) => sum + p.link.deliveryRate!, 0),
    bodyBytes: measured.reduce((sum, p) => sum + p.link.bodyBytes, 0) / measured.length,
    capacity: providers.reduce((sum, p) => sum + capacityOf(p), 0),
  };
}
