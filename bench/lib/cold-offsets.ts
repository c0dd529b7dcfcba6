/**
 * Random offsets for cold reads: each range lies in articles that no earlier pick touched, so the server cannot
 * answer it from its article cache (the bench also checks that the pool's byte counter moved).
 */
import { randomInt } from 'node:crypto';

export interface Span {
  start: number;
  end: number;
}

/** Returns pick(length): a random offset whose range [offset, offset + length) touches only fresh articles, or null. */
export function coldPicker(articles: readonly Span[]): (length: number) => number | null {
  const used = new Set<number>();
  const size = articles.at(-1)?.end ?? 0;
  const indexOf = (pos: number) => {
    let lo = 0;
    let hi = articles.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (articles[mid]!.start <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return (length) => {
    if (length >= size) return null;
    for (let attempt = 0; attempt < 2000; attempt++) {
      const off = randomInt(0, size - length);
      const first = indexOf(off);
      const last = indexOf(off + length - 1);
      let fresh = true;
      for (let i = first; i <= last && fresh; i++) fresh = !used.has(i);
      if (!fresh) continue;
      for (let i = first; i <= last; i++) used.add(i);
      return off;
    }
    return null;
  };
}
