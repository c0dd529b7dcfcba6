import { articleOffsetOf, articleSizeOf, segmentsForRange, type FileLayout } from '../layout/index.js';
import type { ByteSource } from '../archive/index.js';
import type { ArticleClient } from '../articles/index.js';
import { fetchImportArticle } from './first-articles.js';
import { nonRetryableError } from './import-errors.js';

/** A read of archive headers never needs more than this at once; larger asks are hostile sizes. */
const MAX_READ = 4 * 1024 * 1024;

/**
 * Decoded articles fetched during one import (import lane), shared by every volume's header reads: the first
 * article of each volume is already here from the first pass, so most volumes cost no further fetch.
 */
export class ImportArticles {
  private readonly articles = new Map<string, Promise<Buffer>>();
  fetched = 0;

  constructor(
    private readonly client: ArticleClient,
    private readonly signal: AbortSignal,
  ) {}

  seed(messageId: string, data: Buffer): void {
    if (data.length > 0) this.articles.set(messageId, Promise.resolve(data));
  }

  get(messageId: string, what: string): Promise<Buffer> {
    let p = this.articles.get(messageId);
    if (!p) {
      this.fetched++;
      p = fetchImportArticle(this.client, messageId, this.signal).then((a) => {
        if (!a) throw nonRetryableError(`${what}: article <${messageId}> is missing on every provider`);
        return Buffer.from(a.data);
      });
      p.catch(() => this.articles.delete(messageId));
      this.articles.set(messageId, p);
    }
    return p;
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
      const datas = await Promise.all(segs.map((s) => articles.get(s.messageId, name)));
      const out = Buffer.allocUnsafe(length);
      segs.forEach((s, i) => {
        const data = datas[i]!;
        if (data.length !== articleSizeOf(s)) {
          throw nonRetryableError(
            `${name}: article <${s.messageId}> decodes to ${data.length} bytes, not ${articleSizeOf(s)}`,
          );
        }
        const from = Math.max(offset, s.start);
        const to = Math.min(offset + length, s.end);
        const at = articleOffsetOf(s) - s.start;
        data.copy(out, from - offset, from + at, to + at);
      });
      return out;
    },
  };
}
