import { setMaxListeners } from 'node:events';
import type { Reading, VfsReader } from './reader.js';
import { articleOffsetOf, articleSizeOf, findIn as findSegment } from '../layout/index.js';
import type { Lease } from './article-fetcher.js';
import type { FileLayout, VfsNode, VfsSegment } from './types.js';
import { RETIRE_SLACK, SCANNER_READ_AHEAD, seekReadAhead } from './stream-window.js';

/**
 * Where a stream shows the articles it holds to readers that do not call JS (the FUSE native window). Published
 * bytes stay pinned in the article cache until retired; `retire` returns only once nobody copies from them.
 */
export interface StreamWindow {
  /** False when the window refused the bytes (then they are not pinned for it). */
  publish(fileOffset: number, bytes: Uint8Array): boolean;
  retire(fileOffset: number): void;
}

/**
 * One open file with a reading position (a FUSE handle, or a player's successive range requests). While reads
 * follow each other, the next `workersPerStream` articles past the read are fetched into the cache; a read
 * anywhere else (a seek) cancels that read-ahead, so random access downloads only what is asked for.
 *
 * "Follow each other" is judged by article, not by exact offset: the kernel sends a FUSE file's reads several at
 * a time (async read, its own read-ahead), so they arrive out of order, and a read that waited for the network
 * can finish after reads further on. A read that starts at most `readAhead` articles behind the furthest one
 * read, or anywhere up to just past the window fetched ahead, is sequential. Treating those as seeks cancelled
 * the read-ahead on almost every read; with the mount's read_ahead_kb at 1 MiB, a window of one article behind
 * still cancelled enough of it to download the file 1.8 times over.
 */
export class ReadStream {
  private nextOffset = 0;
  /** Article index of the end of the furthest read since the last seek (-1 before the first). */
  private lastIndex = -1;
  private ahead = aheadController();
  private aheadThrough = -1;
  readonly node: VfsNode;
  readonly layout: FileLayout | null;
  /** Published articles by index, each with the lease that pins it (only with a window). */
  private readonly held = new Map<number, Lease>();
  private closed = false;

  constructor(
    private readonly reader: VfsReader,
    path: string,
    private readonly readAhead: () => number,
    window?: StreamWindow,
    /** Who reads now (player or scanner, and the handle), for the pool's lanes; a scanner reads ahead little. */
    private readonly who: () => Reading = () => ({}),
  ) {
    const f = reader.openFile(path);
    this.node = f.node;
    this.layout = f.layout;
    // an encrypted member's articles hold ciphertext: nothing may be served from them without the decryption stage
    this.window = f.layout?.cipher ? undefined : window;
  }

  private readonly window: StreamWindow | undefined;

  /**
   * Reads into one buffer (FUSE wants exactly `length` bytes, fewer only at end of file). `onServed(n)` runs once
   * the bytes are in `target` and before the read-ahead moves on, so the handle's count (what `who` tells) includes
   * this read when the read-ahead asks how much the reader has earned.
   */
  async readInto(
    target: Buffer,
    offset: number,
    length: number,
    signal: AbortSignal,
    onServed?: (n: number) => void,
  ): Promise<number> {
    // A handle's first read at byte 0 is a player reading the container header, which it leaves for the index at
    // the other end: a short read-ahead, and the full window only once a next read continues the stream.
    const probe = this.lastIndex < 0 && offset === 0;
    const sequential = this.follows(offset);
    let n = 0;
    const who = this.who();
    const chunks = this.reader.readFile(this.node, this.layout, offset, length, signal, who)[Symbol.asyncIterator]();
    let step = chunks.next(); // starts this read's fetches, its first article urgent
    this.seekAhead(probe, sequential, offset + length, who, true);
    let finished = false;
    try {
      for (let r = await step; !r.done; r = await step) {
        target.set(r.value, n);
        n += r.value.byteLength;
        step = chunks.next();
      }
      finished = true;
    } finally {
      if (!finished) await chunks.return(undefined); // as for-await would: the read's fetches and leases end here
    }
    onServed?.(n);
    this.advance(offset, n, sequential && !probe);
    return n;
  }

  /**
   * A seek (or a handle's first read, at byte 0: `probe`): what follows the read ending at `end` is asked for at
   * once. A read that waits for the network (`missed`) asks behind its own articles, and on a long link as much
   * more as the link carries per round trip (a second wave would wait a whole one). A read served from memory asks
   * for what it earned (`readAheadFrom`): a player returning from its index to play often finds its first articles
   * there already (its header read fetched them), and asking nothing then left its start-up reading one read's
   * articles at a time, each a round trip behind the last (issue 31), while a probe's return to its first packets
   * (32 KiB) fetches one article past them, not a seek's window.
   */
  private seekAhead(probe: boolean, sequential: boolean, end: number, who: Reading, missed: boolean): void {
    if ((probe || !sequential) && this.layout && !this.closed && who.reader !== 'scanner')
      this.readAheadFrom(Math.min(end, this.node.size), seekReadAhead(probe, this.readAhead()), missed && !probe);
  }

  /**
   * The same read served synchronously when every article it touches is already in memory (the read-ahead's
   * job), or null, and then nothing happened: call `readInto`. No promise, lease or abort signal per read: the
   * copy finishes before any other code runs, so no buffer can be recycled under it. FUSE answers most reads of a
   * sequential reader this way; the kernel keeps only a couple of 128 KiB reads in flight, so every await per
   * read was throughput lost.
   */
  readCached(target: Buffer, offset: number, length: number, onServed?: (n: number) => void): number | null {
    const layout = this.layout;
    const end = Math.min(this.node.size, offset + length);
    if (!layout || layout.cipher || offset < 0) return null;
    if (offset >= end) return 0;
    const segs = layout.segments;
    const cache = this.reader.fetcher.cache;
    let n = 0;
    for (let i = findSegment(segs, offset); n < end - offset; i++) {
      const seg = segs[i] as VfsSegment;
      const data = cache.get(seg.messageId)?.data;
      if (!data || data.byteLength !== articleSizeOf(seg)) return null; // not here yet, or bad: the async path reports it
      const at = articleOffsetOf(seg) - seg.start; // file byte -> byte of the decoded article
      const from = offset + n + at;
      const to = Math.min(end, seg.end) + at;
      target.set(data.subarray(from, to), n);
      n += to - from;
    }
    const probe = this.lastIndex < 0 && offset === 0;
    const sequential = this.follows(offset);
    onServed?.(n);
    this.seekAhead(probe, sequential, offset + n, this.who(), false);
    this.advance(offset, n, sequential && !probe);
    return n;
  }

  /**
   * Reads the window answered without JS reached `end` (they lie inside the published articles, so they follow
   * the stream): move the read-ahead on and retire what the reader has left behind.
   */
  servedUpTo(end: number): void {
    if (!this.layout || this.closed || end <= 0) return;
    this.nextOffset = Math.max(this.nextOffset, Math.min(end, this.node.size));
    this.lastIndex = Math.max(this.lastIndex, findSegment(this.layout.segments, end - 1));
    this.readAheadFrom(end);
    this.retireBehind();
  }

  /**
   * Bytes past `offset` already decoded and cached, article after article until the first one that is not (at most
   * `most` articles looked at): what a reader at `offset` has buffered ahead of it. Read when a view asks, not per read.
   */
  bufferedFrom(offset: number, most = 64): number {
    const layout = this.layout;
    if (!layout || layout.cipher || offset < 0 || offset >= layout.size) return 0;
    const segs = layout.segments;
    const cache = this.reader.fetcher.cache;
    let bytes = 0;
    for (let i = findSegment(segs, offset), n = 0; i < segs.length && n < most; i++, n++) {
      const s = segs[i]!;
      if (!cache.holds(s.messageId)) break;
      bytes += s.end - Math.max(s.start, offset);
    }
    return bytes;
  }

  /** Articles published now (each pinned in the cache), for tests and bounds. */
  get publishedCount(): number {
    return this.held.size;
  }

  /** Whether a read at `offset` continues this stream; a seek drops the read-ahead. */
  private follows(offset: number): boolean {
    const sequential = offset === this.nextOffset || this.nearby(offset);
    if (!sequential) {
      this.ahead.abort();
      this.ahead = aheadController();
      this.aheadThrough = -1;
      this.retireAll();
      // Judge the reads sent together with this one against where it lands, not against the old position.
      this.lastIndex = this.layout ? findSegment(this.layout.segments, offset) : -1;
    }
    return sequential;
  }

  private advance(offset: number, n: number, sequential: boolean): void {
    this.nextOffset = offset + n;
    if (this.layout && n > 0)
      this.lastIndex = Math.max(this.lastIndex, findSegment(this.layout.segments, offset + n - 1));
    if (sequential && this.layout && n > 0) this.readAheadFrom(offset + n);
    this.retireBehind();
  }

  private nearby(offset: number): boolean {
    if (!this.layout || this.lastIndex < 0) return false;
    const i = findSegment(this.layout.segments, offset);
    return i >= this.lastIndex - Math.max(1, this.readAhead()) && i <= Math.max(this.lastIndex, this.aheadThrough) + 1;
  }

  close(): void {
    this.closed = true;
    this.ahead.abort();
    this.retireAll();
  }

  /**
   * Fetches ahead from `pos`: at most `most` articles and the window. A scanner: the article just past the one the
   * read ended in, once its run has read a whole article (before, nothing: what it fetches ahead never passes what
   * it has read). An open that has not read a run of playback yet (`who.earned`: a probe reads 32 KiB here and
   * there, and its second read looks sequential too): past the article the read ended in, no more whole articles
   * than its run has read (one at least); a `seek` that waits for the network (a player's return to play after its
   * header and index) keeps its short read-ahead.
   */
  private readAheadFrom(pos: number, most = Infinity, seek = false): void {
    const layout = this.layout as FileLayout;
    if (pos >= this.node.size) return;
    const start = findSegment(layout.segments, pos);
    const who = this.who();
    const ahead = Math.min(most, Math.max(1, this.readAhead()));
    let until = start + ahead - 1;
    if (who.reader === 'scanner') {
      // never more than it has read: a probe's 32 KiB reads fetch the articles they read, nothing past them
      if (who.earned !== undefined && who.earned < articleBytes(layout)) return;
      until = start + SCANNER_READ_AHEAD;
    } else if (who.earned !== undefined && !seek)
      until = Math.min(until, start + Math.max(1, Math.floor(who.earned / articleBytes(layout))));
    if (until <= this.aheadThrough) return;
    const from = Math.max(start, this.aheadThrough + 1);
    this.aheadThrough = until;
    const signal = this.ahead.signal;
    const keep = this.window ? (i: number, lease: Lease) => this.publish(i, lease, signal) : undefined;
    this.reader.prefetch(this.node, layout, from, until, signal, keep, who);
  }

  /** Publishes a fetched read-ahead article, keeping its lease; or lets it go when it is no longer wanted. */
  private publish(index: number, lease: Lease, signal: AbortSignal): void {
    const seg = (this.layout as FileLayout).segments[index] as VfsSegment;
    const wanted =
      !signal.aborted &&
      !this.closed &&
      !this.held.has(index) &&
      index >= this.lastIndex - RETIRE_SLACK &&
      lease.data.byteLength === articleSizeOf(seg); // a bad article is never published: JS reports it
    // The window gets only this file's share of the article (a volume's article may also hold a neighbour's bytes).
    const share = lease.data.subarray(articleOffsetOf(seg), articleOffsetOf(seg) + seg.end - seg.start);
    if (wanted && (this.window as StreamWindow).publish(seg.start, share)) this.held.set(index, lease);
    else lease.release();
  }

  private retireBehind(): void {
    for (const [i, lease] of this.held) {
      if (i >= this.lastIndex - RETIRE_SLACK) continue;
      this.retire(i, lease);
    }
  }

  private retireAll(): void {
    for (const [i, lease] of this.held) this.retire(i, lease);
  }

  /** Retire first (no FUSE thread copies from it after this), then unpin (the cache may reuse the buffer). */
  private retire(index: number, lease: Lease): void {
    this.held.delete(index);
    (this.window as StreamWindow).retire(((this.layout as FileLayout).segments[index] as VfsSegment).start);
    lease.release();
  }
}

/** The read-ahead's controller: one abort listener per article fetched ahead, up to the stream window's cap. */
function aheadController(): AbortController {
  const c = new AbortController();
  setMaxListeners(128, c.signal);
  return c;
}

/** A file's mean article size in bytes (its articles are one size but the last). */
function articleBytes(layout: FileLayout): number {
  return Math.max(1, layout.size / Math.max(1, layout.segments.length));
}
