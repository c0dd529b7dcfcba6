import type { StreamClosedEvent, StreamOpenedEvent, StreamProgressEvent } from '../events/live.wire.js';
import { classifyReader, type Classification, type ReadPatternFacts } from './reader-class.js';
import { isStarved } from './starved.js';
import type { EndedStreamInfo, StreamEndReason, StreamFront, StreamInfo } from './streams.wire.js';

/** The window the delivered rate is measured over. */
export const RATE_WINDOW_MS = 5_000;

/** One open stream as the registry keeps it: the last event's numbers, rate samples, its class. */
export class StreamSession {
  readonly front: StreamFront;
  bytesServed = 0;
  offset: number;
  ttfbMs: number | null = null;
  stalls = 0;
  stalledMs = 0;
  /** The wait in progress at the last update, and the bytes cached ahead then (null before a look at the handle). */
  waitingMs = 0;
  bufferedBytes: number | null = null;
  connections: number | null = null;
  providers: string[] = [];
  klass: Classification = { readerClass: 'player', settled: false };
  /** How this open reads, as its handle last told (ReadHandles.classifyWith); one run of nothing before that. */
  pattern: ReadPatternFacts = { runBytes: 0, longestRun: 0, jumps: 0 };
  /** Bytes counted per UTC day under the current class (moved when the class changes). */
  readonly countedByDay = new Map<string, number>();
  /** (time, bytes, stalled ms) samples within RATE_WINDOW_MS, plus the one before it. */
  private samples: { t: number; bytes: number; stalledMs: number }[];

  constructor(
    readonly opened: StreamOpenedEvent,
    readonly openedAt: number,
  ) {
    this.offset = opened.offset;
    this.front = opened.via === 'webdav' && /^rclone\//i.test(opened.client.user_agent ?? '') ? 'rclone' : opened.via;
    this.samples = [{ t: openedAt, bytes: 0, stalledMs: 0 }];
  }

  /** Takes the numbers of a progress or closed event; returns the bytes served since the last one. */
  update(e: StreamProgressEvent | StreamClosedEvent, now: number): number {
    const delta = Math.max(0, e.bytes_sent - this.bytesServed);
    this.bytesServed = e.bytes_sent;
    this.offset = e.position;
    this.ttfbMs = e.ttfb_ms;
    this.stalls = e.stalls;
    this.stalledMs = e.stalled_ms;
    this.waitingMs = e.waiting_ms ?? 0;
    if (e.buffered_bytes !== undefined) this.bufferedBytes = e.buffered_bytes;
    if (e.connections !== undefined) this.connections = e.connections;
    if (e.providers !== undefined) this.providers = e.providers;
    this.samples.push({ t: now, bytes: e.bytes_sent, stalledMs: e.stalled_ms });
    const from = now - RATE_WINDOW_MS;
    while (this.samples.length > 1 && this.samples[1]!.t <= from) this.samples.shift();
    return delta;
  }

  /** Bytes per second over the last RATE_WINDOW_MS (0 when nothing arrived in it). */
  rate(now: number): number {
    const first = this.samples[0]!;
    const last = this.samples[this.samples.length - 1]!;
    const start = Math.max(first.t, now - RATE_WINDOW_MS);
    if (last.t <= now - RATE_WINDOW_MS || now <= start) return 0;
    return Math.round(((last.bytes - first.bytes) * 1000) / (now - first.t));
  }

  /** size / duration in bytes per second, when the file's duration is known. */
  get mediaBitrate(): number | null {
    const d = this.opened.duration_seconds;
    return d !== undefined && d > 0 ? Math.round(this.opened.size / d) : null;
  }

  /** The starved rule (starved.ts) on this stream now. */
  starved(now: number, rateBps: number): boolean {
    return isStarved({
      readerClass: this.klass.readerClass,
      mediaBitrateBps: this.mediaBitrate,
      rateBps,
      offset: this.offset,
      size: this.opened.size,
      ageMs: now - this.openedAt,
      windowMs: RATE_WINDOW_MS,
      waitedMs: this.stalledMs - this.samples[0]!.stalledMs + this.waitingMs,
    });
  }

  /**
   * Re-runs the classifier (reader-class.ts) on this open's own reads unless the class is settled; `bytesServed`:
   * the handle's count now, when it is newer than the last event's. Returns whether the class changed.
   */
  reclassify(now: number, closed: boolean, bytesServed = this.bytesServed): boolean {
    if (this.klass.settled) return false;
    const before = this.klass.readerClass;
    this.klass = classifyReader({
      ...this.pattern,
      userAgent: this.opened.client.user_agent,
      size: this.opened.size,
      bytesServed: Math.max(bytesServed, this.bytesServed),
      ageMs: now - this.openedAt,
      closed,
    });
    return this.klass.readerClass !== before;
  }

  info(now: number, closed = false): StreamInfo {
    const o = this.opened;
    const rate = this.rate(now);
    return {
      id: o.stream_id,
      path: o.path,
      size: o.size,
      front: this.front,
      client: { ...o.client },
      reader_class: this.klass.readerClass,
      class_settled: this.klass.settled,
      opened_at: new Date(this.openedAt).toISOString(),
      bytes_served: this.bytesServed,
      offset: this.offset,
      rate_bps: rate,
      ttfb_ms: this.ttfbMs,
      stalls: this.stalls,
      stalled_ms: this.stalledMs,
      duration_seconds: o.duration_seconds ?? null,
      media_bitrate_bps: this.mediaBitrate,
      starved: !closed && this.starved(now, rate),
      buffered_bytes: closed ? null : this.bufferedBytes,
      connections: closed ? null : this.connections,
      providers: [...this.providers],
    };
  }

  ended(now: number, reason: StreamEndReason): EndedStreamInfo {
    // the rate a finished stream had over its last window, not the 0 it has once time moves on
    return { ...this.info(now, true), closed_at: new Date(now).toISOString(), reason };
  }
}
