import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FileLayout } from '../layout/index.js';
import type { Par2File, Par2Set } from './par2-solver.js';
import { articlesUnder, carriedBy, memberTarget, volumeRanges } from './volume-map.js';

// A volume of 3 articles of 10 bytes (a, b, c); a member made of the volume's bytes 4..30 (a header of 4 bytes
// first); PAR2 slices of 5 bytes over the volume.
const volume: FileLayout = {
  size: 30,
  segments: ['a', 'b', 'c'].map((id, i) => ({ messageId: id, start: i * 10, end: i * 10 + 10, articleSize: 10 })),
};
const member: FileLayout = {
  size: 26,
  segments: [
    { messageId: 'a', start: 0, end: 6, articleOffset: 4, articleSize: 10 },
    { messageId: 'b', start: 6, end: 16, articleSize: 10 },
    { messageId: 'c', start: 16, end: 26, articleSize: 10 },
  ],
};
const file: Par2File = {
  fileId: 'v1',
  md5: Buffer.alloc(16),
  md5First16k: Buffer.alloc(16),
  length: 30,
  name: 'x.part01.rar',
  sliceCount: 6,
  firstSlice: 0,
};
const set = { sliceSize: 5, files: [file] } as unknown as Par2Set;
const bytes = Buffer.from(Array.from({ length: 30 }, (_, i) => i));
const kept = { name: 'x.part01.rar', size: 30, layout: volume, volume: true };

test('a member missing range names its articles, and those name the volume slices', () => {
  const gone = articlesUnder(member, [{ start: 3, end: 5 }]);
  assert.deepEqual([...gone], ['a']);
  assert.deepEqual(volumeRanges(volume, gone), [{ start: 0, end: 10 }]);
});

test('rebuilt volume slices become member ranges at the member offsets, only where all bytes were rebuilt', () => {
  const volumes = carriedBy(set, new Map(), [kept]);
  assert.deepEqual([...volumes.keys()], ['v1']);
  // slices 0, 1 (article a) and 3 (half of b) rebuilt: only a's part of the member (its bytes 0..6)
  const part = memberTarget(set, member, volumes, [0, 1, 3]);
  assert.deepEqual(part.ranges, [{ start: 0, end: 6 }]);
  assert.equal(part.bytes, 6);
  assert.deepEqual(part.pieces(3, 0, bytes.subarray(15, 20)), [], 'b is not patched');
  // a strip of slice 0 (volume bytes 2..5): the member gets volume bytes 4..5 at its offset 0
  const strip = part.pieces(0, 2, bytes.subarray(2, 5));
  assert.deepEqual(
    strip.map((p) => [p.start, [...p.data]]),
    [[0, [4]]],
  );
  // every slice: the whole member, each slice's bytes at member offset (volume offset - 4)
  const whole = memberTarget(set, member, volumes, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(whole.ranges, [{ start: 0, end: 26 }]);
  const out = Buffer.alloc(26);
  for (let i = 0; i < 6; i++)
    for (const p of whole.pieces(i, 0, bytes.subarray(i * 5, i * 5 + 5))) Buffer.from(p.data).copy(out, p.start);
  assert.deepEqual(out, bytes.subarray(4));
});

test('a volume of another size or name is not matched', () => {
  assert.equal(carriedBy(set, new Map(), [{ ...kept, size: 31 }]).size, 0);
});
