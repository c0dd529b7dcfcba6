import { ArticleGoneError, LayoutBytes, type ArticleClient } from '../articles/index.js';
import type { FileLayout } from '../layout/index.js';

/** Raised when the pool could not answer (an outage): a repair stops, it never patches from a guess. */
export class RepairUnreachableError extends Error {}

/**
 * Reads byte ranges of posted files through the pool on the repair lane (below streams, health and imports), with
 * the one reader of a file's bytes (appliance/articles/layout-bytes.ts). A range is null when one of its articles is
 * gone (430 everywhere, or a body damaged everywhere: the pool's own evidence); any other failure throws
 * RepairUnreachableError. The last few articles are kept, since PAR2 slices are usually smaller than an article and
 * read in order.
 */
export class LayoutRangeReader {
  private readonly bytes: LayoutBytes;

  constructor(
    client: ArticleClient,
    private readonly signal: AbortSignal,
    keep = 4,
  ) {
    this.bytes = new LayoutBytes(client, 'repair', signal, { maxCachedArticles: keep, inOrder: true });
  }

  /** Articles fetched from the pool so far. */
  get articles(): number {
    return this.bytes.fetched;
  }

  async read(layout: FileLayout, start: number, end: number): Promise<Buffer | null> {
    if (end <= start) return Buffer.alloc(Math.max(0, end - start));
    try {
      return await this.bytes.read(layout, start, end);
    } catch (err) {
      if (err instanceof ArticleGoneError) return null;
      if (this.signal.aborted) throw err;
      if (err instanceof RepairUnreachableError) throw err;
      throw new RepairUnreachableError((err as Error).message);
    }
  }
}
