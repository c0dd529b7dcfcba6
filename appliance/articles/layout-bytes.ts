import { AbortedError, articleEvidence } from '../nntp/errors.js';
import {
  articleOffsetOf,
  articleSizeOf,
  segmentsForRange,
  type FileLayout,
  type LayoutSegment,
} from '../layout/index.js';
import type { ArticleClient, Lane } from './article-evidence.js';

/**
 * An article a read needed is gone: missing on every provider (430 everywhere), its body damaged on every provider
 * (CRC), or decoding to another size than the layout says. The pool's own evidence, never an outage.
 */
export class ArticleGoneError extends Error {
  override readonly name = 'ArticleGoneError';
  constructor(
    readonly messageId: string,
    readonly why: 'missing' | 'damaged' | 'size',
    message: string,
    /** The pool's error, for a damaged body. */
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The pool could not answer for an article (an outage, a timeout): no evidence about it. `cause` is the pool's error. */
export class ArticleUnreachableError extends Error {
  override readonly name = 'ArticleUnreachableError';
  constructor(
    readonly messageId: string,
    override readonly cause: unknown,
  ) {
    super(`article <${messageId}>: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export interface LayoutBytesOptions {
  /** Decoded whole articles kept, in bytes; least recently used dropped first (never the one just used). */
  maxCachedBytes?: number;
  /** The same bound in articles. */
  maxCachedArticles?: number;
  /** Fetch a read's articles one after another, stopping at the first gone one (default: all at once). */
  inOrder?: boolean;
}

interface Entry {
  data: Promise<Buffer>;
  /** Decoded bytes once settled (0 while in flight, and for a gone article). */
  bytes: number;
  settled: boolean;
}

/**
 * The one way to read bytes of a laid-out file through the pool, on the lane its caller names (the importer's
 * header reads on `import`, the PAR2 repair's slices on `repair`; docs/nntp.md "Lanes"). A read of [start, end)
 * fetches the articles that hold it, whole, and keeps them in a small cache (the reads of a caller come close
 * together: a volume's headers, a recovery set's slices in order); the first bytes of an article seeded by `seed`
 * answer reads inside them without a fetch. A gone article rejects with ArticleGoneError (and stays known gone for
 * this reader's life); an outage rejects with ArticleUnreachableError; an abort with the pool's AbortedError.
 * The streams' reader (appliance/vfs) has its own machinery: read-ahead, players' turns, decoding into its cache.
 */
export class LayoutBytes {
  private readonly heads = new Map<string, Buffer>();
  /** Insertion order is use order (an entry is moved to the end when read): the first entry is the oldest. */
  private readonly articles = new Map<string, Entry>();
  private cachedBytes = 0;
  /** Articles fetched from the pool (a cache hit or a head fetches none). */
  fetched = 0;

  constructor(
    private readonly client: ArticleClient,
    private readonly lane: Lane,
    private readonly signal: AbortSignal,
    private readonly opts: LayoutBytesOptions = {},
  ) {}

  /** The first bytes of an article (a first article's head): reads inside them need no fetch. */
  seed(messageId: string, head: Uint8Array): void {
    if (head.length > 0) this.heads.set(messageId, Buffer.from(head.buffer, head.byteOffset, head.byteLength));
  }

  /** Bytes cached in whole articles now (the heads aside). */
  get cachedArticleBytes(): number {
    return this.cachedBytes;
  }

  /** Bytes [start, end) of the file `layout` maps; bytes past the file's end read as zeros (PAR2's padding). */
  async read(layout: FileLayout, start: number, end: number): Promise<Buffer> {
    const out = Buffer.alloc(Math.max(0, end - start));
    const range = segmentsForRange(layout, start, end);
    if (!range) return out;
    const stop = Math.min(end, layout.size);
    const piece = async (s: LayoutSegment) => {
      const from = Math.max(start, s.start);
      const to = Math.min(stop, s.end);
      const at = articleOffsetOf(s) - s.start;
      out.set(await this.slice(s.messageId, from + at, to + at, articleSizeOf(s)), from - start);
    };
    const segs = layout.segments.slice(range.first, range.last + 1);
    if (this.opts.inOrder) for (const s of segs) await piece(s);
    else await Promise.all(segs.map(piece));
    return out;
  }

  /** The whole decoded article holding segment `index` of `layout`, of the size the layout says it decodes to. */
  wholeArticle(layout: FileLayout, index: number): Promise<Buffer> {
    const s = layout.segments[index] as LayoutSegment;
    const size = articleSizeOf(s);
    return this.slice(s.messageId, 0, size, size);
  }

  /** Bytes [from, to) of an article that decodes to `size` bytes: from its head when inside it, else the article. */
  private async slice(messageId: string, from: number, to: number, size: number): Promise<Buffer> {
    const head = this.heads.get(messageId);
    if (head && to <= head.length) return head.subarray(from, to);
    const data = await this.article(messageId);
    if (data.length !== size) {
      const why = `article <${messageId}> decodes to ${data.length} bytes, not ${size}`;
      throw new ArticleGoneError(messageId, 'size', why);
    }
    return data.subarray(from, to);
  }

  /** The whole decoded article: fetched once, then cached while recently used. */
  private article(messageId: string): Promise<Buffer> {
    const hit = this.articles.get(messageId);
    if (hit) {
      this.articles.delete(messageId);
      this.articles.set(messageId, hit);
      return hit.data;
    }
    this.fetched++;
    const entry: Entry = { data: this.fetch(messageId), bytes: 0, settled: false };
    this.articles.set(messageId, entry);
    entry.data.then(
      (data) => {
        entry.settled = true;
        if (this.articles.get(messageId) !== entry) return;
        entry.bytes = data.length;
        this.cachedBytes += data.length;
        this.evict(entry);
      },
      (err: unknown) => {
        entry.settled = true;
        // Known gone stays known (the pool's evidence); an outage or an abort is asked again next time.
        if (!(err instanceof ArticleGoneError) && this.articles.get(messageId) === entry)
          this.articles.delete(messageId);
        else this.evict(entry);
      },
    );
    return entry.data;
  }

  private async fetch(messageId: string): Promise<Buffer> {
    try {
      const article = await this.client.body(messageId, { priority: this.lane, signal: this.signal });
      // A copy: the decoded article may be a view of a larger buffer, which the cache must not keep alive.
      return Buffer.from(article.data);
    } catch (err) {
      if (this.signal.aborted) throw err;
      const evidence = articleEvidence(err);
      if (evidence === 'missing')
        throw new ArticleGoneError(messageId, 'missing', `article <${messageId}> is missing on every provider`);
      if (evidence === 'damaged')
        throw new ArticleGoneError(messageId, 'damaged', `article <${messageId}>: ${(err as Error).message}`, err);
      if (err instanceof AbortedError || (err instanceof Error && err.name === 'AbortError')) throw err;
      throw new ArticleUnreachableError(messageId, err);
    }
  }

  /** Drops the least recently used settled articles until the cache fits its bounds; `keep` (just used) stays. */
  private evict(keep: Entry): void {
    const maxBytes = this.opts.maxCachedBytes ?? Number.POSITIVE_INFINITY;
    const maxArticles = this.opts.maxCachedArticles ?? Number.POSITIVE_INFINITY;
    for (const [id, entry] of this.articles) {
      if (this.cachedBytes <= maxBytes && this.articles.size <= maxArticles) return;
      if (!entry.settled || entry === keep) continue;
      this.articles.delete(id);
      this.cachedBytes -= entry.bytes;
    }
  }
}
