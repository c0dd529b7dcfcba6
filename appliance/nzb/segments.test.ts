import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { packSegments, SegmentWriter } from './segment-writer.js';
import { NzbSegments } from './segments.js';

const plain = [
  { number: 1, bytes: 100, messageId: 'a@x' },
  { number: 2, bytes: 2 ** 40, messageId: 'ç日@x' },
  { number: 2 ** 33, bytes: 0, messageId: 'z@x' },
];

describe('NzbSegments', () => {
  it('reads back what it was built from, one value or segment at a time', () => {
    const list = packSegments(plain);
    assert.equal(list.length, 3);
    assert.deepEqual(list.toArray(), plain);
    assert.deepEqual([...list], plain);
    assert.equal(list.messageId(1), 'ç日@x');
    assert.equal(list.number(2), 2 ** 33);
    assert.equal(list.totalBytes(), 100 + 2 ** 40);
  });

  it('refuses an index outside the file instead of reading a neighbour', () => {
    const list = packSegments(plain);
    for (const bad of [-1, 3, 1.5, NaN]) assert.throws(() => list.messageId(bad), RangeError);
    assert.deepEqual(packSegments([]).toArray(), []);
  });
});

describe('SegmentWriter', () => {
  it('keeps files apart in one store, sorts a file stably and drops its repeats', () => {
    const w = new SegmentWriter();
    w.add(1, 10, 'f1.1@x');
    w.add(2, 20, 'f1.2@x');
    assert.deepEqual(w.closeFile(0), { length: 2, missingCount: 0, missingNumbers: [], duplicatesDropped: 0 });
    w.add(4, 40, 'four@x');
    w.add(1, 10, 'one@x');
    w.add(4, 44, 'four-again@x');
    w.add(2, 20, 'two@x');
    assert.deepEqual(w.closeFile(2), { length: 3, missingCount: 1, missingNumbers: [3], duplicatesDropped: 1 });
    const store = w.store();
    assert.deepEqual(new NzbSegments(store, 0, 2).toArray(), [
      { number: 1, bytes: 10, messageId: 'f1.1@x' },
      { number: 2, bytes: 20, messageId: 'f1.2@x' },
    ]);
    assert.deepEqual(new NzbSegments(store, 2, 3).toArray(), [
      { number: 1, bytes: 10, messageId: 'one@x' },
      { number: 2, bytes: 20, messageId: 'two@x' },
      { number: 4, bytes: 40, messageId: 'four@x' },
    ]);
  });

  it('stores each domain once and gives every id back whole: no @, several @, empty domain, 70,000 domains', () => {
    const odd = ['plain', 'a@b@c.example', 'ends@', '@starts', 'x@ngPost.com', 'y@ngPost.com'];
    const many = Array.from({ length: 70_000 }, (_, i) => `id${i}@host${i}.example`);
    const list = packSegments([...odd, ...many].map((messageId, i) => ({ number: i + 1, bytes: 1, messageId })));
    assert.deepEqual(
      list.toArray().map((s) => s.messageId),
      [...odd, ...many],
    );
  });

  it('grows past a small first guess, long multibyte ids included', () => {
    const w = new SegmentWriter(100); // sized for ~1 segment
    const long = 'é'.repeat(4000);
    for (let n = 1; n <= 3000; n++) w.add(n, n, n % 1000 === 0 ? `${long}${n}@x` : `${n}@x`);
    w.closeFile(0);
    const list = new NzbSegments(w.store(), 0, 3000);
    assert.equal(list.messageId(1999), `${long}2000@x`);
    assert.equal(list.messageId(2999), `${long}3000@x`);
    assert.equal(list.messageId(2000), '2001@x');
    assert.equal(list.bytes(2999), 3000);
  });
});
