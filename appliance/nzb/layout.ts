import { checkEncodedSizes } from './layout-check.js';
import type { FileLayout, LayoutSegment } from '../layout/index.js';
import type { NzbFile, YencFacts } from './types.js';

export type { FileLayout };

export type LayoutOutcome =
  | { kind: 'ok'; layout: FileLayout; warnings: string[] }
  /** The facts so far do not pin every article down: fetch the yEnc headers of these segment indexes and retry. */
  | { kind: 'need-headers'; mustCheck: number[]; reason: string }
  /** The file cannot be laid out (articles missing from the NZB, headers that contradict each other). */
  | { kind: 'invalid'; reason: string };

/** `planLayout`'s answer: like `LayoutOutcome`, with each article's decoded size instead of the built layout. */
export type LayoutPlan =
  { kind: 'ok'; sizes: Float64Array; size: number; warnings: string[] } | Exclude<LayoutOutcome, { kind: 'ok' }>;

interface Anchor {
  index: number;
  start: number;
  size: number;
}

/**
 * Lays out one posted file from the yEnc facts known so far, keyed by segment index (0 = first article).
 * Needs at least the first article's facts. Between two articles whose headers are known, the articles are assumed
 * to share the earlier one's part size (the last one of the file may be shorter); where that does not add up, the
 * outcome names the segment to fetch next (the last one, then bisection), so the importer converges in a few rounds.
 */
export function layoutFile(file: NzbFile, known: ReadonlyMap<number, YencFacts>): LayoutOutcome {
  const plan = planLayout(file, known);
  if (plan.kind !== 'ok') return plan;
  return { kind: 'ok', layout: buildLayout(file, plan.sizes), warnings: plan.warnings };
}

/**
 * `layoutFile` without building the layout: the decoded size of every article (8 bytes each). The importer keeps
 * plans and builds each file's layout only when the job is written, so a big release's per-article objects never
 * sit in memory all at once (docs/performance.md, import memory).
 */
export function planLayout(file: NzbFile, known: ReadonlyMap<number, YencFacts>): LayoutPlan {
  const n = file.segments.length;
  if (n === 0) return { kind: 'invalid', reason: 'the file has no segments' };
  if (file.missingCount > 0) {
    const which = file.missingNumbers.slice(0, 10).join(', ');
    return { kind: 'invalid', reason: `the NZB lacks ${file.missingCount} of the file's articles (numbers ${which}…)` };
  }
  const first = known.get(0);
  if (!first) return { kind: 'need-headers', mustCheck: [0], reason: 'the first article has not been read' };
  const total = first.size;
  if (!Number.isSafeInteger(total) || total <= 0)
    return { kind: 'invalid', reason: `=ybegin size=${total} is not a size` };
  const anchors = toAnchors(known, n, total, first);
  if (typeof anchors === 'string') return { kind: 'invalid', reason: anchors };
  anchors.push({ index: n, start: total, size: 0 }); // the end of the file, as a fixed point
  const sizes = new Float64Array(n);
  const mustCheck: number[] = [];
  for (let k = 0; k + 1 < anchors.length; k++) {
    const a = anchors[k]!;
    const b = anchors[k + 1]!;
    sizes[a.index] = a.size;
    const problem = fillBetween(sizes, a, b, n, known, mustCheck);
    if (problem) return { kind: 'invalid', reason: problem };
  }
  if (mustCheck.length > 0) {
    return { kind: 'need-headers', mustCheck, reason: 'part sizes do not add up to the file size' };
  }
  const inferred = (i: number) => !known.has(i);
  const check = checkEncodedSizes(sizes, file.segments, inferred);
  if (check.suspects.length > 0) {
    return { kind: 'need-headers', mustCheck: check.suspects, reason: check.reason };
  }
  const warnings = check.warnings;
  if (first.name && known.size > 1) {
    for (const facts of known.values()) {
      if (facts.name !== first.name) warnings.push(`articles name the file differently: ${first.name} / ${facts.name}`);
    }
  }
  const size = sizes.reduce((sum, s) => sum + s, 0);
  return { kind: 'ok', sizes, size, warnings: [...new Set(warnings)] };
}

/** Convenience for the common case: the first article's facts, and the last one's when already fetched. */
export function layoutFromFirstAndLast(file: NzbFile, first: YencFacts, last?: YencFacts): LayoutOutcome {
  const known = new Map<number, YencFacts>([[0, first]]);
  if (last && file.segments.length > 1) known.set(file.segments.length - 1, last);
  return layoutFile(file, known);
}

function toAnchors(
  known: ReadonlyMap<number, YencFacts>,
  n: number,
  total: number,
  first: YencFacts,
): Anchor[] | string {
  if (first.begin === undefined || first.end === undefined) {
    if (n > 1) return `the first article has no =ypart header but the file is posted in ${n} articles`;
    return [{ index: 0, start: 0, size: total }];
  }
  const anchors: Anchor[] = [];
  for (const [index, facts] of [...known.entries()].sort((x, y) => x[0] - y[0])) {
    if (index < 0 || index >= n) return `facts given for segment ${index}, but the file has ${n}`;
    if (facts.size !== total)
      return `articles disagree on the file size (${total} vs ${facts.size} at segment ${index + 1})`;
    if (facts.begin === undefined || facts.end === undefined) return `segment ${index + 1} has no =ypart header`;
    const start = facts.begin - 1;
    const size = facts.end - facts.begin + 1;
    if (!Number.isSafeInteger(start) || start < 0 || size <= 0 || start + size > total) {
      return `segment ${index + 1} claims bytes ${facts.begin}-${facts.end} of a ${total}-byte file`;
    }
    const previous = anchors[anchors.length - 1];
    if (previous && start < previous.start + previous.size + (index - previous.index - 1)) {
      return `segments ${previous.index + 1} and ${index + 1} overlap or are out of order`;
    }
    anchors.push({ index, start, size });
  }
  if (anchors[0]!.start !== 0) return `the first article starts at byte ${anchors[0]!.start + 1}, not 1`;
  return anchors;
}

/** Fills sizes of the segments strictly between anchors a and b; pushes a segment to fetch when it cannot. */
function fillBetween(
  sizes: Float64Array,
  a: Anchor,
  b: Anchor,
  n: number,
  known: ReadonlyMap<number, YencFacts>,
  mustCheck: number[],
): string | null {
  const count = b.index - a.index - 1;
  const gap = b.start - (a.start + a.size);
  if (count === 0) {
    if (gap === 0) return null;
    return b.index === n
      ? `the last article ends at byte ${a.start + a.size}, but the file is ${b.start} bytes`
      : `segments ${a.index + 1} and ${b.index + 1} leave ${gap} bytes uncovered`;
  }
  const part = a.size;
  const openEnd = b.index === n; // the file's last article may be shorter than the rest
  const fits = openEnd ? gap > (count - 1) * part && gap <= count * part : gap === count * part;
  if (!fits) {
    mustCheck.push(openEnd && !known.has(n - 1) ? n - 1 : a.index + 1 + Math.floor((count - 1) / 2));
    return null;
  }
  for (let i = a.index + 1; i < b.index; i++) sizes[i] = part;
  if (openEnd) sizes[n - 1] = gap - (count - 1) * part;
  return null;
}

/** Whole articles, in order, each remembering its NZB number, encoded size and posted file (for export). */
export function buildLayout(file: NzbFile, sizes: Float64Array): FileLayout {
  const segments = new Array<LayoutSegment>(sizes.length);
  let at = 0;
  const nzb = file.segments;
  for (let i = 0; i < sizes.length; i++) {
    // the key order is the stored records' (lmdb's shared structures): messageId, start, end, number, bytes, post
    const end = at + sizes[i]!;
    segments[i] = { messageId: nzb.messageId(i), start: at, end, number: nzb.number(i), bytes: nzb.bytes(i), post: 0 };
    at += sizes[i]!;
  }
  const { poster, date, subject, groups } = file;
  return { size: at, segments, groups, posts: [{ poster, date, subject, groups }] };
}
