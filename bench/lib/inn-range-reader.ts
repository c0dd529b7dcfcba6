/**
 * Byte ranges of files posted to the bench INN, read as Spool reads them: BODY over a few NntpConnections (pipelined,
 * decoded by Spool's yEnc decoder), with a small cache of decoded articles so neighbouring ranges that share an
 * article fetch it once. A range touching an article INN answers 430 (or 423) for, or one whose body fails its CRC,
 * reads as null: the only evidence of damage. Any other failure throws.
 */
import { ArticleMissingError, CorruptArticleError } from '../../appliance/nntp/errors.js';
import type { NntpConnection } from '../../appliance/nntp/connection.js';

export interface PostedSegmentLite {
  messageId: string;
  offset: number;
  size: number;
}

export interface PostedFileLite {
  name: string;
  size: number;
  segments: PostedSegmentLite[];
}

export class InnRangeReader {
  private readonly cache = new Map<string, Promise<Buffer | null>>();
  private next = 0;
  /** Articles fetched (a cache miss each) and their decoded bytes. */
  fetched = 0;
  fetchedBytes = 0;

  constructor(
    private readonly connections: NntpConnection[],
    private readonly cachedArticles = 24,
  ) {}

  /** Bytes [offset, offset + length) of `file`, cut at its end; null when an article of the range is missing. */
  async read(file: PostedFileLite, offset: number, length: number): Promise<Buffer | null> {
    const end = Math.min(file.size, offset + length);
    if (end <= offset) return Buffer.alloc(0);
    const parts = file.segments.filter((s) => s.offset < end && s.offset + s.size > offset);
    const bodies = await Promise.all(parts.map((s) => this.article(s.messageId)));
    if (bodies.some((b) => b === null)) return null;
    const out = Buffer.allocUnsafe(end - offset);
    parts.forEach((s, n) => {
      const from = Math.max(offset, s.offset);
      const to = Math.min(end, s.offset + s.size);
      bodies[n]!.copy(out, from - offset, from - s.offset, to - s.offset);
    });
    return out;
  }

  private article(messageId: string): Promise<Buffer | null> {
    const hit = this.cache.get(messageId);
    if (hit) {
      this.cache.delete(messageId); // most recently used last
      this.cache.set(messageId, hit);
      return hit;
    }
    const conn = this.connections[this.next++ % this.connections.length]!;
    const fetch = conn.body(`<${messageId}>`).then(
      (part) => {
        this.fetched++;
        this.fetchedBytes += part.data.length;
        return part.data;
      },
      (e: unknown) => {
        if (e instanceof ArticleMissingError || e instanceof CorruptArticleError) return null;
        throw e;
      },
    );
    this.cache.set(messageId, fetch);
    fetch.catch(() => this.cache.delete(messageId));
    while (this.cache.size > this.cachedArticles) this.cache.delete(this.cache.keys().next().value!);
    return fetch;
  }
}
