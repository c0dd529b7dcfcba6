import { setMaxListeners } from 'node:events';
import { AppError } from '../errors/app-error.js';
import { silentEvents, type EventSink, type SpoolEvents } from '../events/index.js';
import { articleEvidence, type ArticleEvidence } from '../nntp/errors.js';
import { ArticleCache } from './article-cache.js';
import { ArticleFetcher, abortError, type ArticleSource, type FetchHow, type Lease } from './article-fetcher.js';
import type { VfsService } from './vfs.service.js';
import { articleOffsetOf, articleSizeOf, findIn } from '../layout/index.js';
import { decryptRange } from './decrypt.js';
import { isProbeArticle } from './probe-articles.js';
import { rampsUp, rangeWorkers, readerWindow, streamWindow } from './stream-window.js';
import {
  NO_PATCHES,
  type ArticleFailure,
  type FileLayout,
  type PatchedBytes,
  type VfsNode,
  type VfsSegment,
} from './types.js';

/**
 * Who reads, for the pool's lanes (FetchHow): a player or a scanner, and its read handle. `earned`: the bytes of
 * its current run while the open has not read a run of PLAY_RUN_BYTES yet (read-pattern.ts), absent once it has:
 * a FUSE handle reads ahead no more than that (read-stream.ts). `unproven`: its client has not yet shown it reads
 * what it is sent (a WebDAV GET, ClientDrain in read-handle.ts): a range read keeps only its first burst ahead of
 * its consumer (stream-window.ts, rangeWorkers).
 */
export type Reading = Pick<FetchHow, 'reader' | 'stream'> & { earned?: number; unproven?: boolean };

export interface ReaderSettings {
  /** streaming.max_cache_size_mb in bytes. */
  cacheBytes: number;
  /** streaming.max_download_workers: the most article fetches in flight per stream (the window adapts below it). */
  workersPerStream: number;
  /** Zero-fill of tiny holes: off unless the operator enables it; bounded per hole and per file. */
  zeroFill: { enabled: boolean; maxHoleBytes: number; maxHolesPerFile: number; maxFileShare: number };
}

/**
 * A read that cannot return the right bytes. WebDAV answers 502 before headers; FUSE answers EIO. `evidence` says
 * whether the article itself is known bad (missing or damaged everywhere) or the providers could not be reached.
 */
export class VfsReadError extends AppError {
  constructor(
    readonly path: string,
    readonly messageId: string,
    reason: string,
    readonly evidence: ArticleEvidence | undefined,
  ) {
    super(
      'ARTICLE_UNAVAILABLE',
      evidence
        ? `Article ${messageId} of ${path} is unavailable from every provider: ${reason}`
        : `Article ${messageId} of ${path} could not be fetched (providers unreachable, nothing is known missing): ${reason}`,
    );
  }
}

/**
 * The one reader under WebDAV and FUSE. A byte range maps to articles by binary search over the stored layout;
 * up to `workersPerStream` articles are fetched at once in file order, and bytes are yielded as soon as the first
 * article arrives. A stream (`openStream`) adds read-ahead past the requested range while the reader is sequential
 * and drops it on a seek.
 */
export class VfsReader {
  readonly fetcher: ArticleFetcher;
  private readonly zeroFilled = new Map<string, number>();

  constructor(
    private readonly vfs: VfsService,
    private readonly source: ArticleSource,
    private readonly settings: () => ReaderSettings,
    /**
     * Where read outcomes go (appliance/app/article-failures.ts handles them): `read.article.failed` (missing or
     * damaged on every provider: evidence), `read.article.unreachable` (no provider answered: logged, never
     * recorded), `read.article.recovered` (articles marked missing that a read has just got whole).
     */
    private readonly events: EventSink<SpoolEvents> = silentEvents(),
    /** Bytes a PAR2 repair rebuilt (appliance/repair): served instead of articles missing on every provider. */
    private readonly patches: PatchedBytes = NO_PATCHES,
  ) {
    this.fetcher = new ArticleFetcher(source, new ArticleCache(settings().cacheBytes));
  }

  /**
   * Articles one stream fetches at once now: the base window plus the bandwidth-delay product the pool measured,
   * within streaming.max_download_workers and the cache (stream-window.ts).
   */
  streamWindow(): number {
    const s = this.settings();
    return streamWindow(s.workersPerStream, s.cacheBytes, this.source.link?.());
  }

  /** Looks a file up once; a stream or a WebDAV GET then reads through the returned handle. */
  openFile(path: string): { node: VfsNode; layout: FileLayout | null } {
    const node = this.vfs.requireNode(path);
    if (node.type !== 'file') throw new AppError('NOT_A_FILE', `Not a file: ${node.path}`);
    return { node, layout: node.layoutId ? this.vfs.layout(node) : null };
  }

  /** Reads [offset, offset+length) of a file (clamped to its size), chunk by chunk. */
  read(path: string, offset: number, length: number, signal: AbortSignal): AsyncIterable<Uint8Array> {
    const file = this.openFile(path);
    return this.readFile(file.node, file.layout, offset, length, signal);
  }

  async *readFile(
    node: VfsNode,
    layout: FileLayout | null,
    offset: number,
    length: number,
    signal: AbortSignal,
    /** Who reads; a function is asked again at every article (a WebDAV GET's class may change as it reads). */
    who: Reading | (() => Reading) = {},
  ): AsyncGenerator<Uint8Array> {
    const whoNow = typeof who === 'function' ? who : () => who;
    const end = Math.min(node.size, offset + length);
    if (offset < 0 || offset >= end) return;
    if (!layout) {
      if (!node.sidecarId) throw new AppError('NO_SUCH_PATH', `No content for ${node.path}`);
      const bytes = await this.vfs.sidecars.read(node.sidecarId);
      yield bytes.subarray(offset, end);
      return;
    }
    if (layout.cipher) {
      // a member of an encrypted archive: the articles hold ciphertext, decrypted on the way out
      yield* decryptRange(layout.cipher, offset, end, (from, to) =>
        this.readStored(node, layout, from, to, signal, whoNow),
      );
      return;
    }
    yield* this.readStored(node, layout, offset, end, signal, whoNow);
  }

  /** Bytes [offset, end) as the articles store them (end within the layout). */
  private async *readStored(
    node: VfsNode,
    layout: FileLayout,
    offset: number,
    end: number,
    signal: AbortSignal,
    whoNow: () => Reading,
  ): AsyncGenerator<Uint8Array> {
    this.cacheResize();
    const segs = layout.segments;
    const first = findIn(segs, offset);
    const last = findIn(segs, end - 1);
    // Our own controller so that a consumer that stops early (break, error) cancels the fetches it started.
    const local = new AbortController();
    // one listener per article in flight: the stream window may hold up to its cap (docs/streaming.md), past
    // Node's default warning threshold of 10
    setMaxListeners(128, local.signal);
    const onAbort = () => local.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const pending: Promise<Lease>[] = [];
    let next = first;
    // A read to the end of the file starts short and widens as it is consumed (stream-window.ts).
    const ramped = rampsUp(end, node.size, last - first + 1);
    const fill = (consumed: number) => {
      // Read again at every article: a long read follows the link as the pool measures it, and its reader's class.
      const who = whoNow();
      const window = readerWindow(who.reader, this.streamWindow(), consumed);
      const workers = rangeWorkers(window, ramped, offset === 0, consumed, who.unproven === true);
      while (next <= last && pending.length < workers) {
        // The reader waits for the first article now (a seek lands here): it goes before any read-ahead queued.
        // Past the article after the consumer's, the range's articles are read-ahead to the pool's lanes.
        const ahead = next - (first + consumed) > 1;
        const p = this.segment(node, layout, next, local.signal, {
          ...who,
          urgent: next++ === first,
          readAhead: ahead,
        });
        p.catch(() => undefined); // observed below; this only stops "unhandled rejection" if we exit early
        pending.push(p);
      }
    };
    try {
      for (let i = first; i <= last; i++) {
        fill(i - first);
        const lease = await (pending.shift() as Promise<Lease>);
        try {
          if (signal.aborted) throw abortError();
          const seg = segs[i] as VfsSegment;
          const at = articleOffsetOf(seg) - seg.start; // file byte -> byte of the decoded article
          const from = Math.max(offset, seg.start) + at;
          const to = Math.min(end, seg.end) + at;
          // The consumer is done with this chunk when it asks for the next one; only then may the buffer be reused.
          yield lease.data.subarray(from, to);
        } finally {
          lease.release();
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      local.abort();
      for (const p of pending)
        p.then(
          (l) => l.release(),
          () => undefined,
        );
    }
  }

  /**
   * Warms the cache with articles [from, to] (read-ahead); failures are left for the real read to report.
   * `keep` takes each article's lease instead of releasing it (the FUSE window publishes what it keeps).
   */
  prefetch(
    node: VfsNode,
    layout: FileLayout,
    from: number,
    to: number,
    signal: AbortSignal,
    keep?: (index: number, lease: Lease) => void,
    who: Reading = {},
  ): void {
    const last = Math.min(to, layout.segments.length - 1);
    for (let i = Math.max(0, from); i <= last; i++) {
      const seg = layout.segments[i] as VfsSegment;
      const how = { ...who, readAhead: true, postedAt: postedAtOf(layout, seg) };
      this.fetcher.get(seg.messageId, signal, articleSizeOf(seg), layout.groups, how).then(
        (l) => (keep ? keep(i, l) : l.release()),
        () => undefined,
      );
    }
  }

  /**
   * One whole article's bytes, checked against the article's decoded size in the layout (not the segment's share
   * of it: a file inside an archive volume uses part of an article). A failure is evidence only when every
   * provider said 430 or served a damaged body (nntp `articleEvidence`) or the decoded size contradicts the layout;
   * only then is it reported as an article failure and may be zero-filled. Anything else (an outage) fails the
   * read and records nothing.
   */
  private async segment(
    node: VfsNode,
    layout: FileLayout,
    index: number,
    signal: AbortSignal,
    how: FetchHow = {},
  ): Promise<Lease> {
    const seg = layout.segments[index] as VfsSegment;
    const want = articleSizeOf(seg);
    const id = node.layoutId;
    if (id && this.patches.has(id) && this.patches.covers(id, seg.start, seg.end)) return this.patched(id, seg, want);
    let reason: string;
    let evidence: ArticleEvidence | undefined;
    try {
      const keep = isProbeArticle(node.name, index, layout.segments.length, how);
      const posted = { ...how, postedAt: postedAtOf(layout, seg), keep };
      const lease = await this.fetcher.get(seg.messageId, signal, want, layout.groups, posted);
      if (lease.data.byteLength === want) {
        // bytes from this node's disk (the probe cache) say nothing of the providers
        if (this.vfs.health.unavailable(node.path, seg.messageId) && this.source.fromDisk?.(lease.data) !== true)
          this.events.emit('read.article.recovered', { path: node.path, messageIds: [seg.messageId] });
        return lease;
      }
      lease.release();
      reason = `decoded ${lease.data.byteLength} bytes, expected ${want}`;
      evidence = 'damaged';
    } catch (err) {
      if (signal.aborted || (err as Error).name === 'AbortError') throw err;
      reason = (err as Error).message || 'fetch failed';
      evidence = articleEvidence(err);
    }
    const failure = { path: node.path, messageId: seg.messageId, segmentIndex: index, reason, at: Date.now() };
    if (!evidence) {
      this.events.emit('read.article.unreachable', failure);
      throw new VfsReadError(node.path, seg.messageId, reason, undefined);
    }
    const zero = this.mayZeroFill(node, want);
    this.events.emit('read.article.failed', { ...failure, evidence, zeroFilled: zero } satisfies ArticleFailure);
    if (zero) return { data: new Uint8Array(want), release: () => undefined };
    throw new VfsReadError(node.path, seg.messageId, reason, evidence);
  }

  /**
   * A repaired article: the segment's file bytes from the patch store, placed where the article holds them (the
   * rest of the article, another file's share of an archive volume, is never read through this segment).
   */
  private async patched(layoutId: string, seg: VfsSegment, size: number): Promise<Lease> {
    const bytes = await this.patches.read(layoutId, seg.start, seg.end);
    const data = new Uint8Array(size);
    data.set(bytes, articleOffsetOf(seg));
    return { data, release: () => undefined };
  }

  private mayZeroFill(node: VfsNode, holeBytes: number): boolean {
    const z = this.settings().zeroFill;
    if (!z.enabled || holeBytes > z.maxHoleBytes) return false;
    const used = this.zeroFilled.get(node.path) ?? 0;
    if (used + 1 > z.maxHolesPerFile || (used + 1) * holeBytes > node.size * z.maxFileShare) return false;
    this.zeroFilled.set(node.path, used + 1);
    return true;
  }

  private cacheResize(): void {
    this.fetcher.cache.resize(this.settings().cacheBytes);
  }
}

/** Index of the segment holding byte `pos` (segments tile the file in order). */
export const findSegment = findIn;

/** The post date of a segment's NZB `<file>` in ms since the epoch; undefined when the NZB gave none. */
function postedAtOf(layout: FileLayout, seg: VfsSegment): number | undefined {
  const date = seg.post === undefined ? undefined : layout.posts?.[seg.post]?.date;
  return date ? date * 1000 : undefined;
}
