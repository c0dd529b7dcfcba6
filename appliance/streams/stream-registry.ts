import type { Clock } from '../clock/clock.js';
import type { StreamClosedEvent, StreamOpenedEvent, StreamProgressEvent } from '../events/live.wire.js';
import type { ReadPatternFacts } from './reader-class.js';
import { StreamSession } from './stream-session.js';
import {
  READER_CLASSES,
  type ClassBytesDay,
  type EndedStreamInfo,
  type FetchedBytesDay,
  type ReaderClass,
  type StreamEndReason,
  type StreamInfo,
} from './streams.wire.js';

export interface StreamRegistryOptions {
  clock: Pick<Clock, 'now'>;
  /** Ended sessions kept (newest first). */
  historyLimit?: number;
  /** Ended sessions older than this are dropped. */
  historyMaxAgeMs?: number;
  /** UTC days of bytes per class kept, today included. */
  daysKept?: number;
  /**
   * The open handles' numbers now, as progress payloads: read before each listing, so a reader that has not
   * reached its next progress event (at most one a second, and none while it waits) shows what it has served.
   */
  current?: () => StreamProgressEvent[];
  /** What the pool fetched per class per day (pool-traffic.ts); none when absent. */
  fetched?: () => FetchedBytesDay[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The open streams of WebDAV, FUSE and rclone, fed by the stream events (wired in appliance/app/streams.ts), each
 * classified by its own access pattern (reader-class.ts; its handle tells it at each read: `classOf`); a bounded history of ended ones with how they ended; bytes
 * served per reader class per UTC day. In memory: a restart starts them afresh (docs/streaming.md).
 */
export class StreamRegistry {
  private readonly open = new Map<string, StreamSession>();
  private ended: EndedStreamInfo[] = [];
  /** day → class → bytes */
  private readonly days = new Map<string, Record<ReaderClass, number>>();
  private readonly historyLimit: number;
  private readonly historyMaxAgeMs: number;
  private readonly daysKept: number;

  constructor(private readonly o: StreamRegistryOptions) {
    this.historyLimit = o.historyLimit ?? 200;
    this.historyMaxAgeMs = o.historyMaxAgeMs ?? DAY_MS;
    this.daysKept = o.daysKept ?? 7;
  }

  opened(e: StreamOpenedEvent): void {
    const now = this.o.clock.now();
    const s = new StreamSession(e, now);
    this.open.set(e.stream_id, s);
    s.reclassify(now, false);
  }

  progress(e: StreamProgressEvent): void {
    const s = this.open.get(e.stream_id);
    if (s) this.advance(s, e, false);
  }

  closed(e: StreamClosedEvent, reason: StreamEndReason = e.reason): void {
    const s = this.open.get(e.stream_id);
    if (!s) return;
    this.open.delete(e.stream_id);
    const now = this.advance(s, e, true);
    this.ended.unshift(s.ended(now, reason));
    this.pruneHistory(now);
  }

  /** The open streams, oldest first. */
  list(): StreamInfo[] {
    for (const e of this.o.current?.() ?? []) this.progress(e);
    const now = this.o.clock.now();
    return [...this.open.values()].map((s) => s.info(now));
  }

  /**
   * An open stream's class as of its handle's reads so far (`facts`, given at each read: ReadHandles.classifyWith);
   * undefined for a stream not open here.
   */
  classOf(id: string, facts: ReadPatternFacts & { bytesServed: number }): ReaderClass | undefined {
    const s = this.open.get(id);
    if (!s) return undefined;
    if (s.klass.settled) return s.klass.readerClass;
    const before = s.klass.readerClass;
    s.pattern = { runBytes: facts.runBytes, longestRun: facts.longestRun, jumps: facts.jumps };
    if (s.reclassify(this.o.clock.now(), false, facts.bytesServed)) this.moveBytes(s, before);
    return s.klass.readerClass;
  }

  /** A stream's class now, or as it ended when it is in the history (the metrics' reader_class label). */
  readerClassOf(id: string): ReaderClass | undefined {
    return this.open.get(id)?.klass.readerClass ?? this.ended.find((e) => e.id === id)?.reader_class;
  }

  has(id: string): boolean {
    return this.open.has(id);
  }

  /** Ended sessions, newest first (at most historyLimit, none older than historyMaxAgeMs). */
  history(): EndedStreamInfo[] {
    this.pruneHistory(this.o.clock.now());
    return [...this.ended];
  }

  /** Bytes served per reader class per UTC day, newest first (today always present). */
  bytesByClass(): ClassBytesDay[] {
    this.bucket(dayOf(this.o.clock.now()));
    return [...this.days.entries()]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([day, bytes]) => ({ day, bytes: { ...bytes } }));
  }

  /** Bytes the pool fetched per class per UTC day, newest first. */
  fetchedByClass(): FetchedBytesDay[] {
    return this.o.fetched?.() ?? [];
  }

  private advance(s: StreamSession, e: StreamProgressEvent | StreamClosedEvent, closed: boolean): number {
    const now = this.o.clock.now();
    const before = s.klass.readerClass;
    const delta = s.update(e, now);
    if (s.reclassify(now, closed)) this.moveBytes(s, before);
    this.count(s, delta, now);
    return now;
  }

  /** Bytes a stream served under its former class move to its new one (they were counted provisionally). */
  private moveBytes(s: StreamSession, from: ReaderClass): void {
    for (const [day, n] of s.countedByDay) {
      const b = this.days.get(day);
      if (!b) continue;
      b[from] -= n;
      b[s.klass.readerClass] += n;
    }
  }

  private count(s: StreamSession, delta: number, now: number): void {
    if (delta <= 0) return;
    const day = dayOf(now);
    this.bucket(day)[s.klass.readerClass] += delta;
    s.countedByDay.set(day, (s.countedByDay.get(day) ?? 0) + delta);
  }

  private bucket(day: string): Record<ReaderClass, number> {
    let b = this.days.get(day);
    if (!b) {
      b = Object.fromEntries(READER_CLASSES.map((c) => [c, 0])) as Record<ReaderClass, number>;
      this.days.set(day, b);
      const keep = [...this.days.keys()].sort().slice(-this.daysKept);
      for (const d of this.days.keys()) if (!keep.includes(d)) this.days.delete(d);
    }
    return b;
  }

  private pruneHistory(now: number): void {
    const cut = now - this.historyMaxAgeMs;
    this.ended = this.ended.filter((h) => Date.parse(h.closed_at) >= cut).slice(0, this.historyLimit);
  }
}

function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
