import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodedSizeOf, generateLargeNzb } from '../../tests/support/nzb/generate.js';
import { layoutFile, layoutFromFirstAndLast } from './layout.js';
import type { FileLayout } from './layout.js';
import { concatLayouts, findSegment, segmentsForRange } from '../layout/index.js';
import { parseNzb } from './parser.js';
import { packSegments } from './segment-writer.js';
import type { NzbFile, YencFacts } from './types.js';

/** A posted file whose articles really have these decoded sizes; `bytes` as a poster would report them. */
function posted(
  sizes: number[],
  bytes: (decoded: number) => number = encodedSizeOf,
): { file: NzbFile; facts: (i: number) => YencFacts } {
  const total = sizes.reduce((a, b) => a + b, 0);
  const starts = sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0));
  const file: NzbFile = {
    poster: 'p',
    date: 1,
    subject: '"f.mkv" yEnc',
    groups: ['g'],
    segments: packSegments(sizes.map((s, i) => ({ number: i + 1, bytes: bytes(s), messageId: `m${i}@x` }))),
    missingCount: 0,
    missingNumbers: [],
    duplicatesDropped: 0,
  };
  const facts = (i: number): YencFacts => ({
    name: 'f.mkv',
    size: total,
    part: i + 1,
    begin: starts[i]! + 1,
    end: starts[i]! + sizes[i]!,
  });
  return { file, facts };
}

function ok(outcome: ReturnType<typeof layoutFile>): FileLayout {
  assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
  return (outcome as { layout: FileLayout }).layout;
}

/** A realistic article size. */
const P = 768_000;

const sizesOf = (layout: FileLayout) => layout.segments.map((s) => s.end - s.start);
const startsOf = (layout: FileLayout) => [...layout.segments.map((s) => s.start), layout.size];
const segmentRange = (layout: FileLayout, i: number) => ({
  start: layout.segments[i]!.start,
  end: layout.segments[i]!.end,
});

/** Plays the importer: fetch whatever headers the layout asks for until it settles. Returns the rounds used. */
function converge(sizes: number[], bytes?: (d: number) => number): { layout: FileLayout; rounds: number } {
  const { file, facts } = posted(sizes, bytes);
  const known = new Map<number, YencFacts>([[0, facts(0)]]);
  for (let rounds = 1; rounds <= sizes.length + 1; rounds++) {
    const outcome = layoutFile(file, known);
    if (outcome.kind === 'ok') return { layout: outcome.layout, rounds };
    assert.equal(outcome.kind, 'need-headers', JSON.stringify(outcome));
    if (outcome.kind !== 'need-headers') break;
    for (const i of outcome.mustCheck) {
      assert.ok(!known.has(i), `asked again for segment ${i}`);
      known.set(i, facts(i));
    }
  }
  throw new Error('layout did not converge');
}

describe('layoutFile', () => {
  it('derives every article from the first one: full parts, shorter last', () => {
    const { file, facts } = posted([1000, 1000, 1000, 1000, 500]);
    const layout = ok(layoutFromFirstAndLast(file, facts(0)));
    assert.equal(layout.size, 4500);
    assert.deepEqual(startsOf(layout), [0, 1000, 2000, 3000, 4000, 4500]);
    assert.deepEqual(
      layout.segments.map((x) => x.messageId),
      ['m0@x', 'm1@x', 'm2@x', 'm3@x', 'm4@x'],
    );
    assert.deepEqual(segmentRange(layout, 4), { start: 4000, end: 4500 });
  });

  it('handles a full last article, single articles with and without =ypart', () => {
    const full = posted([1000, 1000, 1000]);
    assert.deepEqual(sizesOf(ok(layoutFromFirstAndLast(full.file, full.facts(0), full.facts(2)))), [1000, 1000, 1000]);
    const single = posted([700]);
    assert.equal(ok(layoutFromFirstAndLast(single.file, single.facts(0))).size, 700);
    assert.equal(ok(layoutFromFirstAndLast(single.file, { name: 'f.mkv', size: 700 })).size, 700);
    const wrong = layoutFromFirstAndLast(single.file, { name: 'f.mkv', size: 900, begin: 1, end: 700 });
    assert.equal(wrong.kind, 'invalid');
    assert.match((wrong as { reason: string }).reason, /ends at byte 700, but the file is 900/);
  });

  it('asks for the last header when the total does not fit the part size, then lays out exactly', () => {
    const truth = [P, P / 2, P / 2, P / 2, P / 2, P / 2];
    const { file, facts } = posted(truth);
    const first = layoutFile(file, new Map([[0, facts(0)]]));
    assert.deepEqual(first, {
      kind: 'need-headers',
      mustCheck: [5],
      reason: 'part sizes do not add up to the file size',
    });
    const { layout, rounds } = converge(truth);
    assert.deepEqual(sizesOf(layout), truth);
    assert.ok(rounds <= 6);
  });

  it('catches short middle articles through the NZB byte counts even when the total adds up', () => {
    const truth = [P, P, P / 2, P, 0.9 * P];
    const { file, facts } = posted(truth);
    const outcome = layoutFile(file, new Map([[0, facts(0)]]));
    assert.equal(outcome.kind, 'need-headers');
    assert.deepEqual((outcome as { mustCheck: number[] }).mustCheck, [2, 4]);
    assert.deepEqual(sizesOf(converge(truth).layout), truth);
  });

  it('converges to the true layout for irregular posts (bytes= and bisection)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 50; trial++) {
      const n = 1 + Math.floor(random() * 60);
      const sizes = Array.from({ length: n }, () => (random() < 0.8 ? P : 100_000 + Math.floor(random() * 600_000)));
      const { layout } = converge(sizes);
      assert.deepEqual(sizesOf(layout), sizes, `trial ${trial}`);
    }
  });

  it('without bytes= and with headers alone, a layout that adds up is accepted (the byte check is what catches more)', () => {
    const { file, facts } = posted([P, P, P / 2, P, 0.9 * P], () => 0);
    assert.deepEqual(sizesOf(ok(layoutFile(file, new Map([[0, facts(0)]])))), [P, P, P, P, 0.4 * P]);
  });

  it('refuses files it cannot lay out, saying why', () => {
    const { file, facts } = posted([1000, 1000, 500]);
    const reason = (known: Map<number, YencFacts>, f = file) => {
      const outcome = layoutFile(f, known);
      assert.equal(outcome.kind, 'invalid', JSON.stringify(outcome));
      return (outcome as { reason: string }).reason;
    };
    assert.match(
      reason(
        new Map([
          [0, facts(0)],
          [2, { ...facts(2), size: 9 }],
        ]),
      ),
      /disagree on the file size/,
    );
    assert.match(reason(new Map([[0, facts(1)]])), /starts at byte 1001, not 1/);
    assert.match(
      reason(
        new Map([
          [0, facts(0)],
          [1, facts(0)],
        ]),
      ),
      /overlap/,
    );
    assert.match(reason(new Map([[0, { name: 'f', size: 2500 }]])), /no =ypart header but the file is posted in 3/);
    assert.match(reason(new Map([[0, { ...facts(0), size: -1 }]])), /not a size/);
    assert.match(
      reason(
        new Map([
          [0, facts(0)],
          [7, facts(0)],
        ]),
      ),
      /facts given for segment 7/,
    );
    const gappy = { ...file, missingCount: 2, missingNumbers: [4, 5] };
    assert.match(reason(new Map([[0, facts(0)]]), gappy), /lacks 2 of the file's articles \(numbers 4, 5/);
    assert.deepEqual(layoutFile(file, new Map()), {
      kind: 'need-headers',
      mustCheck: [0],
      reason: 'the first article has not been read',
    });
  });

  it('trusts headers over NZB byte counts that are wrong everywhere, and warns', () => {
    const sizes = [P, P, P, P / 4];
    const junk = posted(sizes, () => 5);
    const outcome = layoutFile(junk.file, new Map([[0, junk.facts(0)]]));
    assert.equal(outcome.kind, 'ok');
    assert.match(
      (outcome as { warnings: string[] }).warnings.join(),
      /bytes= of segment 1 .* disagrees with its yEnc header/,
    );
    const none = posted(sizes, () => 0);
    assert.match(
      (layoutFile(none.file, new Map([[0, none.facts(0)]])) as { warnings: string[] }).warnings.join(),
      /4 segments have no bytes=/,
    );
  });
});

describe('findSegment and ranges', () => {
  const { file, facts } = posted([1000, 1000, 1000, 1000, 500]);
  const layout = ok(layoutFromFirstAndLast(file, facts(0)));
  it('maps every boundary byte to its article', () => {
    const cases: [number, number][] = [
      [0, 0],
      [999, 0],
      [1000, 1],
      [2999, 2],
      [3000, 3],
      [4000, 4],
      [4499, 4],
      [4500, -1],
      [-1, -1],
      [NaN, -1],
    ];
    for (const [offset, index] of cases) assert.equal(findSegment(layout, offset), index, `offset ${offset}`);
    for (let offset = 0; offset < 4500; offset += 37) {
      const i = findSegment(layout, offset);
      assert.ok(layout.segments[i]!.start <= offset && offset < layout.segments[i]!.end);
    }
  });
  it('gives the articles a range touches', () => {
    assert.deepEqual(segmentsForRange(layout, 900, 2001), { first: 0, last: 2 });
    assert.deepEqual(segmentsForRange(layout, 4000, 10_000), { first: 4, last: 4 });
    assert.equal(segmentsForRange(layout, 10, 10), null);
    assert.equal(segmentsForRange(layout, 4500, 4600), null);
  });
  it('concatenates split pieces', () => {
    const other = posted([300, 200]);
    const otherLayout = ok(layoutFromFirstAndLast(other.file, other.facts(0)));
    const joined = concatLayouts([layout, otherLayout]);
    assert.equal(joined.size, 5000);
    assert.equal(findSegment(joined, 4500), 5);
    assert.equal(findSegment(joined, 4800), 6);
    assert.deepEqual(segmentRange(joined, 6), { start: 4800, end: 5000 });
    assert.deepEqual(
      joined.segments.map((x) => x.post),
      [0, 0, 0, 0, 0, 1, 1],
    );
    assert.deepEqual(
      joined.segments.map((x) => x.number),
      [1, 2, 3, 4, 5, 1, 2],
    );
  });
});

describe('a 70,000-article layout', () => {
  it('is laid out from the first article alone and maps its last byte', () => {
    const generated = generateLargeNzb();
    const file = parseNzb(generated.xml).files[0]!;
    const layout = ok(layoutFromFirstAndLast(file, generated.files[0]!.first));
    assert.equal(layout.size, 50_000_000_000);
    assert.equal(findSegment(layout, 49_999_999_999), 69_999);
  });
});
