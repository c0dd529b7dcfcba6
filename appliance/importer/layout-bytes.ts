import { articleOffsetOf, articleSizeOf, segmentsForRange, type FileLayout } from '../layout/index.js';
import type { ByteSource } from '../archive/index.js';
import type { ArticleClient } from '../articles/index.js';
import { fetchImportArticle } from './first-articles.js';
import { nonRetryableError } from './import-errors.js';

/** A read of archive headers never needs more than this at once; larger asks are hostile sizes. */
const MAX_READ = 4 * 1024 * 1024;

/**
 * Whole articles fetched for header reads are kept up to this many bytes, least recently used dropped first: the
 * reads of one volume come close together (a volume's end block, a member header between two members, a password
 * probe of up to 4 MiB), so a few dozen articles are plenty, whatever the number of volumes (docs/import.md,
 * "Memory").
 */
export const MAX_CACHED_ARTICLE_BYTES = 32 * 1024 * 1024;

/**
 * Decoded articles read during one import (import lane), shared by every volume's header reads. The first article
 * of each volume is known only by its head (the first 16 KiB, kept from the first pass), which holds the volume's
 * first headers, so most volumes cost no further fetch; a read past the head fetches the whole article, which is
 * kept in a cache bounded by `MAX_CACHED_ARTICLE_BYTES`.
 */
export class ImportArticles {
  private readonly heads = new Map<string, Buffer>();
  /** Insertion order is use order (an entry is moved to the end when read): the first entry is the oldest. */
  private readonly articles = new Map<string, { data: Promise<Buffer>; bytes: number }>();
  private cachedBytes = 0;
  fetched = 0;

  constructor(
    private readonly client: ArticleClient,
    private readonly signal: AbortSignal,
    private readonly maxCachedBytes = MAX_CACHED_ARTICLE_BYTES,
  ) {}

  /** The first bytes of an article (a first article's head): reads inside them need no fetch. */
  seed(messageId: string, head: Uint8Array): void {
    if (head.length > 0) this.heads.set(messageId, Buffer.from(head.buffer, head.byteOffset, head.byteLength));
  }

  /** Bytes cached in whole articles now (the heads aside). */
  get cachedArticleBytes(): number {
    return this.cachedBytes;
  }

  /**
   * Bytes [from, to) of an article that decodes to `size` bytes: from its head when they lie inside it, else from
   * the whole article (fetched once, then cached while recently used).
   */
  async slice(messageId: string, from: number, to: number, size: number, what: string): Promise<Buffer> {
    const head = this.heads.get(messageId);
    if (head && to <= head.length) return head.subarray(from, to);
    const data = await this.get(messageId, what);
    if (data.length !== size) {
      throw nonRetryableError(`${what}: article <${messageId}> decodes to ${data.length} bytes, not ${size}`);
    }
    return data.subarray(from, to);
  }

  /** The whole decoded article. */
  get(messageId: string, what: string): Promise<Buffer> {
    const hit = this.articles.get(messageId);
    if (hit) {
      this.articles.delete(messageId);
      this.articles.set(messageId, hit);
      return hit.data;
    }
    this.fetched++;
    const entry = { data: this.fetch(messageId, what), bytes: 0 };
    this.articles.set(messageId, entry);
    entry.data.then(
      (data) => {
        if (this.articles.get(messageId) !== entry) return;
        entry.bytes = data.length;
        this.cachedBytes += data.length;
        this.evict();
      },
      () => {
        if (this.articles.get(messageId) === entry) this.articles.delete(messageId);
      },
    );
    return entry.data;
  }

  private async fetch(messageId: string, what: string): Promise<Buffer> {
    const a = await fetchImportArticle(this.client, messageId, this.signal);
    if (!a) throw nonRetryableError(`${what}: article <${messageId}> is missing on every provider`);
    return Buffer.from(a.data);
  }

  /** Drops the least recently used fetched articles until the cache fits (articles still in flight stay). */
  private evict(): void {
    for (const [id, entry] of this.articles) {
      if (this.cachedBytes <= this.maxCachedBytes) return;
      if (entry.bytes === 0) continue;
      this.articles.delete(id);
      this.cachedBytes -= entry.bytes;
    }
  }
}

/** The bytes of a laid-out file (a posted volume, or a member inside one), read through its articles. */
export function layoutSource(layout: FileLayout, articles: ImportArticles, name: string): ByteSource {
  return {
    size: layout.size,
    async read(offset, length) {
      if (length === 0) return Buffer.alloc(0);
      if (length > MAX_READ || offset < 0 || offset + length > layout.size) {
        throw nonRetryableError(
          `${name}: a header asks for bytes ${offset}-${offset + length} of a ${layout.size}-byte file`,
        );
      }
      const range = segmentsForRange(layout, offset, offset + length)!;
      const segs = layout.segments.slice(range.first, range.last + 1);
      const pieces = await Promise.all(
        segs.map((s) => {
          const from = Math.max(offset, s.start);
          const to = Math.min(offset + length, s.end);
          const at = articleOffsetOf(s) - s.start;
          return articles.slice(s.messageId, from + at, to + at, articleSizeOf(s), name);
        }),
      );
      return pieces.length === 1 ? Buffer.from(pieces[0]!) : Buffer.concat(pieces, length);
    },
  };
}
