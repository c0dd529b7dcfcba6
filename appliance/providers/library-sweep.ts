import type { FileLayout } from '../layout/index.js';

/** What the sweep reads of the library: its files and their layouts (the tree store's port). */
export interface LibraryFiles {
  subtree(path: string): Array<{ type: string; layoutId?: string; segmentCount?: number }>;
  layout(id: string): FileLayout | undefined;
}

/** One article of the library, with its post date (ms). */
export interface LibraryArticle {
  messageId: string;
  posted: number;
}

interface FileCursor {
  layoutId: string;
  count: number;
  start: number;
  step: number;
  taken: number;
}

/**
 * One pass over the library's articles in a random order, without repeats (docs/providers.md "Fit report"): the
 * files in a shuffled order, one article of each in turn, each file's articles in a random stride permutation (so
 * nothing but a start and a step is kept per file). Every article is visited once, and at any point the articles
 * visited are spread over every file. Articles without a post date are skipped: they belong to no age band.
 */
export class LibrarySweep {
  private files: FileCursor[];
  private at = 0;

  constructor(
    private readonly library: LibraryFiles,
    private readonly random: () => number = Math.random,
  ) {
    const cursors: FileCursor[] = [];
    for (const node of library.subtree('/')) {
      const count = node.segmentCount ?? 0;
      if (node.type !== 'file' || !node.layoutId || count < 1) continue;
      cursors.push({ layoutId: node.layoutId, count, start: this.below(count), step: this.stride(count), taken: 0 });
    }
    for (let i = cursors.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [cursors[i], cursors[j]] = [cursors[j]!, cursors[i]!];
    }
    this.files = cursors;
  }

  /** The next article, or undefined when the pass is over. */
  next(): LibraryArticle | undefined {
    while (this.files.length > 0) {
      if (this.at >= this.files.length) this.at = 0;
      const file = this.files[this.at]!;
      const index = (file.start + file.taken * file.step) % file.count;
      file.taken++;
      if (file.taken >= file.count) this.files.splice(this.at, 1);
      else this.at++;
      const article = this.articleOf(file.layoutId, index);
      if (article) return article;
    }
    return undefined;
  }

  private articleOf(layoutId: string, index: number): LibraryArticle | undefined {
    const layout = this.library.layout(layoutId);
    const segment = layout?.segments[index];
    if (!segment) return undefined;
    const post = segment.post === undefined ? layout?.posts?.[0] : layout?.posts?.[segment.post];
    if (!post || !(post.date > 0)) return undefined;
    return { messageId: segment.messageId, posted: post.date * 1000 };
  }

  private below(n: number): number {
    return Math.min(n - 1, Math.floor(this.random() * n));
  }

  /** A step coprime with n: (start + i * step) mod n then visits every index once. */
  private stride(n: number): number {
    if (n <= 2) return 1;
    for (;;) {
      const step = 1 + this.below(n - 1);
      if (gcd(step, n) === 1) return step;
    }
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
