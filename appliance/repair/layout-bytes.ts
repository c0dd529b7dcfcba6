import { articleEvidence } from '../nntp/errors.js';
import type { ArticleClient } from '../articles/index.js';
import { articleOffsetOf, articleSizeOf, findIn, type FileLayout } from '../layout/index.js';

/** Raised when the pool could not answer (an outage): a repair stops, it never patches from a guess. */
export class RepairUnreachableError extends Error {}

/**
 * Reads byte ranges of posted files through the pool on the repair lane (below streams, health and imports). A
 * range is null when one of its articles is missing on every provider (430 everywhere, or a body damaged
 * everywhere: the pool's own evidence); any other failure throws RepairUnreachableError. The last few articles
 * are kept, since PAR2 slices are usually smaller than an article and read in order.
 */
export class LayoutRangeReader {
  private readonly recent = new Map<string, Uint8Array | null>();
  articles = 0;

  constructor(
    private readonly client: ArticleClient,
    private readonly signal: AbortSignal,
    private readonly keep = 4,
  ) {}

  async read(layout: FileLayout, start: number, end: number): Promise<Buffer | null> {
    const out = Buffer.alloc(Math.max(0, end - start));
    if (end <= start) return out;
    const segs = layout.segments;
    for (let i = findIn(segs, start); i < segs.length && segs[i]!.start < end; i++) {
      const seg = segs[i]!;
      const data = await this.article(seg.messageId);
      if (!data || data.byteLength !== articleSizeOf(seg)) return null;
      const from = Math.max(start, seg.start);
      const to = Math.min(end, seg.end);
      const at = articleOffsetOf(seg) - seg.start;
      out.set(data.subarray(from + at, to + at), from - start);
    }
    return out;
  }

  private async article(messageId: string): Promise<Uint8Array | null> {
    if (this.recent.has(messageId)) return this.recent.get(messageId)!;
    let data: Uint8Array | null;
    try {
      data = (await this.client.body(messageId, { priority: 'repair', signal: this.signal })).data;
      this.articles++;
    } catch (err) {
      if (this.signal.aborted) throw err;
      if (!articleEvidence(err)) throw new RepairUnreachableError(`article <${messageId}>: ${(err as Error).message}`);
      data = null;
    }
    this.recent.set(messageId, data);
    if (this.recent.size > this.keep) this.recent.delete(this.recent.keys().next().value!);
    return data;
  }
}
