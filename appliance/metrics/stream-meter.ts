import type { StreamClosedEvent, StreamOpenedEvent, StreamProgressEvent } from '../events/live.wire.js';
import type { Families } from './families.js';
import { FRONTS, READER_CLASSES, STREAM_OUTCOMES, bounded, type Front, type ReaderClass } from './labels.js';

interface Open {
  id: string;
  front: Front;
  bytes: number;
  stalls: number;
  firstByte: boolean;
  seekRead: boolean;
}

/**
 * Turns the stream events into the stream families: bytes and stalls as they grow, the first byte and the read
 * after a seek once per stream. Bytes count under the reader class the stream has when they are served: a class
 * the Streams view changes later (a provisional one) leaves the bytes already counted where they are. Keeps one small entry per open stream (dropped at stream.closed), never its path.
 */
export class StreamMeter {
  private readonly open = new Map<string, Open>();

  /** `classOf`: a stream's reader class when its bytes are counted (the Streams view's; undefined: `unknown`). */
  constructor(
    private readonly f: Families,
    private readonly classOf: (streamId: string) => string | undefined = () => undefined,
  ) {
    for (const front of FRONTS) {
      for (const outcome of STREAM_OUTCOMES) f.streams.inc({ front, outcome }, 0);
      f.stalls.inc({ front }, 0);
    }
  }

  /** Streams being tracked (tests: entries do not outlive their stream). */
  get tracked(): number {
    return this.open.size;
  }

  opened(e: StreamOpenedEvent): void {
    this.open.set(e.stream_id, {
      id: e.stream_id,
      front: bounded(FRONTS, e.via, 'webdav'),
      bytes: 0,
      stalls: 0,
      firstByte: false,
      seekRead: false,
    });
  }

  progress(e: StreamProgressEvent): void {
    const s = this.open.get(e.stream_id);
    if (s) this.advance(s, e);
  }

  closed(e: StreamClosedEvent): void {
    const s = this.open.get(e.stream_id);
    if (!s) return;
    this.advance(s, e);
    this.open.delete(e.stream_id);
    this.f.streams.inc({ front: s.front, outcome: bounded(STREAM_OUTCOMES, e.reason, 'error') });
  }

  private advance(s: Open, e: StreamProgressEvent | StreamClosedEvent): void {
    if (e.bytes_sent > s.bytes) {
      const readerClass: ReaderClass = bounded(READER_CLASSES, this.classOf(s.id), 'unknown');
      this.f.bytesServed.inc({ front: s.front, reader_class: readerClass }, e.bytes_sent - s.bytes);
      s.bytes = e.bytes_sent;
    }
    if (e.stalls > s.stalls) {
      this.f.stalls.inc({ front: s.front }, e.stalls - s.stalls);
      s.stalls = e.stalls;
    }
    if (!s.firstByte && e.ttfb_ms !== null) {
      s.firstByte = true;
      this.f.firstByte.observe({ front: s.front }, e.ttfb_ms / 1000);
    }
    if (!s.seekRead && e.seek_read_ms !== undefined) {
      s.seekRead = true;
      this.f.seekRead.observe({ front: s.front }, e.seek_read_ms / 1000);
    }
  }
}
