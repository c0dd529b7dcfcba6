import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concatLayouts, layoutFromExtents, sliceLayout } from './compose.js';
import { layoutProblem } from './check.js';
import { findSegment, segmentsForRange } from './segment-index.js';
import type { FileLayout } from './layout.types.js';

/** A posted volume of `sizes` articles, ids `<prefix><i>`. */
function volume(prefix: string, sizes: number[]): FileLayout {
  let at = 0;
  const segments = sizes.map((size, i) => {
    const s = { messageId: `${prefix}${i}@x`, start: at, end: at + size, number: i + 1, bytes: size + 30, post: 0 };
    at += size;
    return s;
  });
  return { size: at, segments, posts: [{ poster: 'p', date: 1, subject: prefix, groups: ['g'] }] };
}

/** The bytes a layout says a file holds, given each article's bytes (article i of volume v = fill). */
function bytesOf(layout: FileLayout, article: (id: string, size: number) => Buffer): Buffer {
  return Buffer.concat(
    layout.segments.map((s) => {
      const data = article(s.messageId, s.articleSize ?? s.end - s.start);
      const from = s.articleOffset ?? 0;
      return data.subarray(from, from + s.end - s.start);
    }),
  );
}

const articleBytes = (id: string, size: number) => {
  const seed = [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  return Buffer.from(Array.from({ length: size }, (_, i) => (seed + i * 13) & 0xff));
};

describe('sliceLayout', () => {
  const vol = volume('v', [100, 100, 100, 40]);
  const whole = bytesOf(vol, articleBytes);

  it('cuts mid-article at both ends and keeps where the bytes lie in each article', () => {
    const slice = sliceLayout(vol, 130, 200);
    assert.equal(slice.size, 200);
    assert.deepEqual(
      slice.segments.map((s) => [s.messageId, s.start, s.end, s.articleOffset, s.articleSize]),
      [
        ['v1@x', 0, 70, 30, 100],
        ['v2@x', 70, 170, 0, 100],
        ['v3@x', 170, 200, 0, 40],
      ],
    );
    assert.equal(layoutProblem(slice, 200), null);
    assert.deepEqual(bytesOf(slice, articleBytes), whole.subarray(130, 330));
  });

  it('slices a slice, and a slice inside one article', () => {
    const inner = sliceLayout(sliceLayout(vol, 50, 250), 10, 30);
    assert.deepEqual(bytesOf(inner, articleBytes), whole.subarray(60, 90));
    assert.equal(inner.segments.length, 1);
    assert.equal(inner.segments[0]!.articleOffset, 60);
  });

  it('refuses ranges outside the file', () => {
    assert.throws(() => sliceLayout(vol, 300, 41), RangeError);
    assert.throws(() => sliceLayout(vol, -1, 5), RangeError);
    assert.equal(sliceLayout(vol, 340, 0).segments.length, 0);
  });
});

describe('layoutFromExtents', () => {
  it('joins slices of several volumes; a read maps only to the articles holding it', () => {
    const a = volume('a', [64, 64, 20]);
    const b = volume('b', [64, 64, 30]);
    const file = layoutFromExtents([
      { layout: a, offset: 40, length: 108 },
      { layout: b, offset: 10, length: 100 },
    ]);
    assert.equal(file.size, 208);
    assert.equal(layoutProblem(file, 208), null);
    const expected = Buffer.concat([
      bytesOf(a, articleBytes).subarray(40, 148),
      bytesOf(b, articleBytes).subarray(10, 110),
    ]);
    assert.deepEqual(bytesOf(file, articleBytes), expected);
    // bytes 100..120 lie in a's last article and b's first
    const range = segmentsForRange(file, 100, 120)!;
    assert.deepEqual(
      file.segments.slice(range.first, range.last + 1).map((s) => s.messageId),
      ['a2@x', 'b0@x'],
    );
    assert.equal(findSegment(file, 207), file.segments.length - 1);
    assert.deepEqual(
      file.posts!.map((p) => p.subject),
      ['a', 'b'],
    );
    assert.deepEqual(
      file.segments.map((s) => s.post),
      [0, 0, 0, 1, 1],
    );
  });
});

describe('layoutProblem', () => {
  it('names gaps, sizes and segments that overrun their article', () => {
    const vol = volume('v', [10, 10]);
    assert.match(layoutProblem(vol, 21)!, /layout is of 20 bytes/);
    const gap = { ...vol, segments: [vol.segments[0]!, { ...vol.segments[1]!, start: 11 }] };
    assert.match(layoutProblem(gap, 20)!, /gap or overlap at byte 10/);
    const overrun = concatLayouts([sliceLayout(vol, 5, 10)]);
    overrun.segments[0] = { ...overrun.segments[0]!, articleOffset: 6 };
    assert.match(layoutProblem(overrun, 10)!, /do not fit in article <v0@x>/);
  });
});
