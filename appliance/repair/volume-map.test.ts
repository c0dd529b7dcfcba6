import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FileLayout } from '../layout/index.js';
import type { Par2File, Par2Set } from './par2-solver.js';
import { articlesUnder, carriedBy, memberPieces, volumeRanges } from './volume-map.js';

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

test('rebuilt volume slices become member patches at the member offsets, only where all bytes were rebuilt', () => {
  const volumes = carriedBy(set, new Map(), [kept]);
  assert.deepEqual([...volumes.keys()], ['v1']);
  // slices 0, 1 (article a) and 3 (half of b) rebuilt
  const rebuilt = new Map([0, 1, 3].map((i) => [i, bytes.subarray(i * 5, i * 5 + 5)]));
  const pieces = memberPieces(set, member, volumes, rebuilt);
  assert.equal(pieces.length, 1);
  assert.equal(pieces[0]!.start, 0);
  assert.deepEqual([...pieces[0]!.data], [4, 5, 6, 7, 8, 9]);
  // all slices: one piece, the member's whole bytes
  const all = new Map([0, 1, 2, 3, 4, 5].map((i) => [i, bytes.subarray(i * 5, i * 5 + 5)]));
  const whole = memberPieces(set, member, volumes, all);
  assert.deepEqual(whole, [{ start: 0, data: bytes.subarray(4) }]);
});

test('a volume of another size or name is not matched', () => {
  assert.equal(carriedBy(set, new Map(), [{ ...kept, size: 31 }]).size, 0);
});
