import type { Clock } from '../clock/clock.js';
import type { ReaderKind } from '../nntp/types.js';
import type { Reading, VfsReader } from './reader.js';
import { PLAY_RUN_BYTES, ReadPattern, type ReadPatternView } from './read-pattern.js';
import { ReadStream, type StreamWindow } from './read-stream.js';
import type { VfsNode } from './types.js';

/** Which front a file is read through. */
export type ReadFront = 'webdav' | 'fuse';

/** Who reads: the HTTP client's address and user agent (WebDAV), the reading process (FUSE, when the kernel says). */
export interface ReadClient {
  address?: string;
  userAgent?: string;
  pid?: number;
}

/**
 * What a front knows of whether its client reads what it is sent (WebDAV: the bytes its socket took against what a
 * connection holds unread, http/socket-hold.ts). Until `proven` a range read keeps only its first burst ahead of
 * what the client took (stream-window.ts, rangeWorkers); asked at each article, and once true it stays true.
 */
export interface ClientDrain {
  proven(): boolean;
}

/** What a handle's classifier sees at each read: what it served and how it reads (read-pattern.ts). */
export interface ReadFacts extends ReadPatternView {
  bytesServed: number;
}

/** What a stream looked like when an event was built (opened, progress, closed). */
export interface StreamSnapshot {
  /** Unique per process while it runs. */
  id: number;
  path: string;
  /** The file's size. */
  size: number;
  front: ReadFront;
  client: ReadClient;
  openedAt: number;
  /** File bytes handed to the front (WebDAV: body bytes of the file; FUSE: answered reads, native ones included). */
  bytesServed: number;
  /** Where the last read ended. */
  offset: number;
  /** From open to the first byte served; null before it. */
  ttfbMs: number | null;
  /** Waits for the network longer than STALL_MS after the first byte, and their total length. */
  stalls: number;
  stalledMs: number;
  /**
   * A read that began after a seek (its first byte served at offset > 0): from open until SEEK_READ_BYTES were
   * served; absent otherwise or before then.
   */
  seekReadMs?: number;
  /** How it ended (closed only; null while open). */
  reason: CloseReason | null;
  /** The file's playing time read at import (absent when unknown). */
  durationSeconds?: number;
  /** How long the read in progress has waited for the network so far (absent when none waits). */
  waitingMs?: number;
  /** Decoded bytes cached past the offset (`ReadHandles.snapshots()` only: it walks the layout). */
  bufferedBytes?: number;
}

/** All read (or the reader was done), the client went away, a read failed, or an admin ended it (`end`). */
export type CloseReason = 'done' | 'aborted' | 'error' | 'ended';

/** The port a live view listens on (app/ wires it to the event bus). Called on the JS thread, synchronously. */
export interface StreamObserver {
  opened(s: StreamSnapshot): void;
  progress(s: StreamSnapshot): void;
  closed(s: StreamSnapshot): void;
}

/** A wait for bytes after the first one that counts as a stall. */
export const STALL_MS = 1_000;
/** How much a read after a seek must serve to count as playing again (the metrics' seek histogram). */
export const SEEK_READ_BYTES = 8 * 1024 * 1024;
/** Progress of one handle is reported at most this often. */
export const PROGRESS_MS = 1_000;

export interface OpenOptions {
  /** The first byte the reader asks for, when known at open (a WebDAV range). */
  offset?: number;
  /** Articles read ahead of a sequential reader (FUSE: the stream window). */
  readAhead?: () => number;
  /** Where read-ahead articles are published for reads that never reach JS (the FUSE native window). */
  window?: StreamWindow;
}

/**
 * The open read handles of both fronts and the observers of their life. `open` looks the file up (404 / not a
 * file as AppErrors) and returns the one handle WebDAV and FUSE read through.
 */
export class ReadHandles {
  private readonly open_ = new Map<number, ReadHandle>();
  private readonly observers = new Set<StreamObserver>();
  private nextId = 1;
  /** A handle's reader class now (the Streams view's classifier, wired in app/streams.ts); a player when unset. */
  private classOf: (id: number, facts: ReadFacts) => ReaderKind | undefined = () => undefined;

  constructor(
    private readonly reader: VfsReader,
    readonly clock: Pick<Clock, 'now'>,
  ) {}

  open(path: string, front: ReadFront, client: ReadClient, o: OpenOptions = {}): ReadHandle {
    const id = this.nextId++;
    // asked at each read (and each article of a range): the class follows what the handle has read so far
    const who = (): Reading => {
      const facts = h.facts();
      const reader = this.classOf(id, facts) ?? 'player';
      return facts.longestRun >= PLAY_RUN_BYTES
        ? { reader, stream: id }
        : { reader, stream: id, earned: facts.runBytes };
    };
    const readAhead = o.readAhead ?? (() => this.reader.streamWindow());
    const stream = new ReadStream(this.reader, path, readAhead, o.window, who);
    const h: ReadHandle = new ReadHandle(id, stream, this.reader, front, client, this, o.offset ?? 0, who);
    this.open_.set(h.id, h);
    this.emit('opened', h);
    return h;
  }

  /**
   * Where a handle's reader class comes from (docs/streaming.md, "Reader classes"): every article a handle asks
   * for carries it to the pool, which serves players first. Asked at each read with what the handle has read so
   * far, so a class follows the open's own pattern and a class that settles counts at once.
   */
  classifyWith(classOf: (id: number, facts: ReadFacts) => ReaderKind | undefined): void {
    this.classOf = classOf;
  }

  /** Listens to every handle's opened / progress / closed; returns the unsubscribe. */
  observe(o: StreamObserver): () => void {
    this.observers.add(o);
    return () => void this.observers.delete(o);
  }

  /**
   * Ends an open handle for an admin (DELETE /api/streams/{id}): its front stops serving it (WebDAV cuts the
   * connection, FUSE answers its reads with EIO) and it closes as 'ended'. False when no such handle is open.
   */
  end(id: number): boolean {
    const h = this.open_.get(id);
    if (!h) return false;
    h.end();
    return true;
  }

  /** Whether anyone listens (events are built only then). */
  get observed(): boolean {
    return this.observers.size > 0;
  }

  /** The handles open now, as snapshots (a live view's first state). */
  snapshots(): StreamSnapshot[] {
    return [...this.open_.values()].map((h) => ({ ...h.snapshot(), bufferedBytes: h.bufferedAhead() }));
  }

  /** @internal */
  emit(kind: keyof StreamObserver, h: ReadHandle): void {
    if (kind === 'closed') this.open_.delete(h.id);
    if (this.observers.size === 0) return;
    const s = h.snapshot();
    for (const o of this.observers) o[kind](s);
  }
}

/**
 * One open file on one front, with its reading position: WebDAV opens one per GET (its ranges stream through
 * `stream`), FUSE one per open() (reads through `readInto` / `readCached`, native reads reported by `servedUpTo`).
 * The fetch policy is the reader's and `ReadStream`'s, sized by stream-window.ts; the handle counts what it serves
 * and tells the observers (docs/streaming.md, "Read handles").
 */
export class ReadHandle {
  readonly openedAt: number;
  private bytes = 0;
  /** Bytes `servedUpTo` counted for the native window (an estimate; close replaces it). */
  private nativeEstimate = 0;
  private firstByteAt: number | null = null;
  private stalls = 0;
  private stalledMs = 0;
  /** Where the first byte served began (null before it), and the time to SEEK_READ_BYTES when it began past 0. */
  private firstOffset: number | null = null;
  private seekReadMs: number | null = null;
  private lastProgress: number;
  private reason: CloseReason | null = null;
  /** When the read in progress began waiting for bytes (null: none waits); a field, so a read allocates nothing. */
  private waitingSince: number | null = null;
  private endedByAdmin = false;
  private readonly onEnd_: (() => void)[] = [];
  private readonly pattern: ReadPattern;

  /** @internal: ReadHandles.open */
  constructor(
    readonly id: number,
    private readonly tracker: ReadStream,
    private readonly reader: VfsReader,
    readonly front: ReadFront,
    readonly client: ReadClient,
    private readonly hub: ReadHandles,
    private offset: number,
    /** Who reads now, for the pool's lanes (ReadHandles.classifyWith). */
    private readonly who: () => Reading,
  ) {
    this.openedAt = this.lastProgress = hub.clock.now();
    this.pattern = new ReadPattern(offset);
  }

  /** What the classifier sees now: bytes served and how this open has read (docs/streaming.md, "Reader classes"). */
  facts(): ReadFacts {
    return { bytesServed: this.bytes, ...this.pattern.view() };
  }

  get node(): VfsNode {
    return this.tracker.node;
  }

  /**
   * Bytes [offset, offset+length) as they arrive (a WebDAV range); the reader's own range read-ahead applies, held to
   * its first burst while `drain` says the client has not shown it reads (ClientDrain).
   */
  async *stream(offset: number, length: number, signal: AbortSignal, drain?: ClientDrain): AsyncGenerator<Uint8Array> {
    this.pattern.asked(offset);
    const who = drain ? (): Reading => (drain.proven() ? this.who() : { ...this.who(), unproven: true }) : this.who;
    const chunks = this.reader.readFile(this.node, this.tracker.layout, offset, length, signal, who);
    const it = chunks[Symbol.asyncIterator]();
    let at = offset;
    try {
      for (;;) {
        const asked = (this.waitingSince = this.hub.clock.now());
        const r = await it.next();
        this.waitingSince = null;
        if (r.done) return;
        this.served(at, r.value.byteLength, asked);
        at += r.value.byteLength;
        yield r.value;
      }
    } finally {
      this.waitingSince = null;
      await it.return(undefined);
    }
  }

  /** One read into `target` (FUSE), waiting for the network when it must. */
  async readInto(target: Buffer, offset: number, length: number, signal: AbortSignal): Promise<number> {
    this.pattern.asked(offset);
    const asked = (this.waitingSince = this.hub.clock.now());
    try {
      // counted before the read-ahead moves on, which asks what this open has read (its class, what it earned)
      return await this.tracker.readInto(target, offset, length, signal, (n) => {
        this.waitingSince = null;
        this.served(offset, n, asked);
      });
    } finally {
      this.waitingSince = null;
    }
  }

  /** The same read from memory only, or null (ReadStream.readCached). */
  readCached(target: Buffer, offset: number, length: number): number | null {
    this.pattern.asked(offset);
    return this.tracker.readCached(target, offset, length, (n) => this.served(offset, n, null));
  }

  /**
   * Reads answered without JS (the FUSE native window) reached `end`. What they served is estimated here by how far
   * the position moved (the window wakes JS once per article, not per read); `close` puts the exact count in its
   * place. Asking the addon for the count at every wake-up cost native reads (docs/performance.md).
   */
  servedUpTo(end: number): void {
    if (end > this.offset) {
      this.nativeEstimate += end - this.offset;
      this.served(this.offset, end - this.offset, null);
    }
    this.tracker.servedUpTo(end);
  }

  /** Decoded bytes cached ahead of where the last read ended (ReadStream.bufferedFrom). */
  bufferedAhead(): number {
    return this.reason ? 0 : this.tracker.bufferedFrom(this.offset);
  }

  /** Articles published to the native window now. */
  get publishedCount(): number {
    return this.tracker.publishedCount;
  }

  /** What the front does when an admin ends the handle (cut the connection, fail the reads). */
  onEnd(fn: () => void): void {
    this.onEnd_.push(fn);
  }

  /** True once an admin ended the handle: the front serves nothing more of it. */
  get ended(): boolean {
    return this.endedByAdmin;
  }

  /** @internal: ReadHandles.end */
  end(): void {
    if (this.reason || this.endedByAdmin) return;
    this.endedByAdmin = true;
    for (const fn of this.onEnd_.splice(0)) fn();
  }

  /**
   * Ends the handle (a second close is ignored); `reason` goes to the observers. `nativeBytes`: what the native
   * window served in all (FUSE), which replaces the estimate `servedUpTo` kept.
   */
  close(reason: CloseReason = 'done', nativeBytes?: number): void {
    if (this.reason) return;
    this.reason = this.endedByAdmin ? 'ended' : reason;
    this.tracker.close();
    if (nativeBytes !== undefined && nativeBytes >= 0) this.bytes += nativeBytes - this.nativeEstimate;
    this.hub.emit('closed', this);
  }

  snapshot(): StreamSnapshot {
    return {
      id: this.id,
      path: this.node.path,
      size: this.node.size,
      front: this.front,
      client: this.client,
      openedAt: this.openedAt,
      bytesServed: this.bytes,
      offset: this.offset,
      ttfbMs: this.firstByteAt === null ? null : this.firstByteAt - this.openedAt,
      stalls: this.stalls,
      stalledMs: this.stalledMs,
      reason: this.reason,
      ...(this.waitingSince === null ? {} : { waitingMs: this.hub.clock.now() - this.waitingSince }),
      ...(this.node.durationSeconds === undefined ? {} : { durationSeconds: this.node.durationSeconds }),
      ...(this.seekReadMs === null ? {} : { seekReadMs: this.seekReadMs }),
    };
  }

  /** `asked`: when the read started waiting (null: answered from memory, no wait). */
  private served(offset: number, n: number, asked: number | null): void {
    if (n <= 0) return;
    const now = this.hub.clock.now();
    if (this.firstByteAt === null) {
      this.firstByteAt = now;
      this.firstOffset = offset;
    } else if (asked !== null && now - asked > STALL_MS) {
      this.stalls++;
      this.stalledMs += now - asked;
    }
    this.bytes += n;
    this.pattern.served(offset, n);
    this.offset = offset + n;
    // Reported at once, so the time is exact, not a progress tick late.
    const seekRead = this.seekReadMs === null && this.firstOffset! > 0 && this.bytes >= SEEK_READ_BYTES;
    if (seekRead) this.seekReadMs = now - this.openedAt;
    if (this.hub.observed && (seekRead || now - this.lastProgress >= PROGRESS_MS)) {
      this.lastProgress = now;
      this.hub.emit('progress', this);
    }
  }
}
