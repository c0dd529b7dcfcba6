/**
 * The scale bench's table (bench/scale.bench.ts): one row per figure with its value, its target and whether it
 * passes, and the hook other figures plug into.
 */
import type { ChildServer } from '../../tests/support/child-server.js';
import type { LibraryFacts } from './scale-library.js';

export interface Figure {
  figure: string;
  value: string;
  target: string;
  /** null: reported without a target (context for the others). */
  pass: boolean | null;
}

/** What a figure hook may use: the running server on the built library and what the library holds. */
export interface ScaleContext {
  srv: ChildServer;
  library: LibraryFacts;
  /** The pattern provider's answers so far (BODY / STAT / HEAD), live. */
  provider: { body: number; stat: number; head: number };
  /** The library's article counts as a share of real posts (SCALE_ARTICLE_FACTOR). */
  articleFactor: number;
  log: (m: string) => void;
}

/** Figures measured on the same library by another part of Spool (scale.bench.ts lists them). */
export type FigureHook = (ctx: ScaleContext) => Promise<Figure[]>;

export function table(rows: readonly Figure[]): string {
  const mark = (p: boolean | null) => (p === null ? '' : p ? 'pass' : 'FAIL');
  return [
    '| figure | value | target | |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.value} | ${r.target} | ${mark(r.pass)} |`),
  ].join('\n');
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
