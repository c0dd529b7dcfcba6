import type { FileLayout } from './types.js';

/**
 * The decoded layouts of the files read last (tree.store.ts). A stored layout is packed and decoding one costs a
 * few milliseconds per 10,000 articles (docs/performance.md, "Metadata store size"); a WebDAV client playing a film
 * opens it again for every range request, so the layouts of the files being read stay decoded. Bounded by their
 * segments (about 230 bytes of heap each, measured: ~14 MB at the bound) and their number; the least recently read
 * goes first. Callers treat a
 * layout as read-only, as they always have.
 */
export class LayoutCache {
  private readonly entries = new Map<string, FileLayout>();
  private segments = 0;

  constructor(
    private readonly maxSegments = 60_000,
    private readonly maxLayouts = 16,
  ) {}

  get(id: string): FileLayout | undefined {
    const layout = this.entries.get(id);
    if (layout) {
      // most recently read last
      this.entries.delete(id);
      this.entries.set(id, layout);
    }
    return layout;
  }

  set(id: string, layout: FileLayout): void {
    this.forget(id);
    if (layout.segments.length > this.maxSegments) return;
    this.entries.set(id, layout);
    this.segments += layout.segments.length;
    for (const [oldest, old] of this.entries) {
      if (this.segments <= this.maxSegments && this.entries.size <= this.maxLayouts) break;
      this.entries.delete(oldest);
      this.segments -= old.segments.length;
    }
  }

  forget(id: string): void {
    const layout = this.entries.get(id);
    if (!layout) return;
    this.entries.delete(id);
    this.segments -= layout.segments.length;
  }
}
