import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JUMP_SLACK, ReadPattern } from './read-pattern.js';

const KIB = 1024;
const read = (p: ReadPattern, offset: number, n: number) => {
  p.asked(offset);
  p.served(offset, n);
};

test("ffprobe's reads through the mount: head, the end of the media, the tail, back to the head: three jumps", () => {
  const size = 16 * 1024 * KIB;
  const p = new ReadPattern(0);
  read(p, 0, 128 * KIB); // 32 KiB asked, the kernel's read-ahead makes it 128 KiB
  read(p, 952_932, 32 * KIB); // within the kernel's read-ahead reach: the same run
  assert.deepEqual(p.view(), { runBytes: 160 * KIB, longestRun: 160 * KIB, jumps: 0 });
  read(p, size - 7 * KIB, 7 * KIB);
  read(p, 44, 32 * KIB);
  assert.deepEqual(p.view(), { runBytes: 32 * KIB, longestRun: 160 * KIB, jumps: 2 });
});

test('reads the kernel sends out of order within JUMP_SLACK continue the run; a seek starts a new one', () => {
  const p = new ReadPattern(0);
  read(p, 256 * KIB, 128 * KIB);
  read(p, 128 * KIB, 128 * KIB);
  read(p, 0, 128 * KIB);
  assert.deepEqual(p.view(), { runBytes: 384 * KIB, longestRun: 384 * KIB, jumps: 0 });
  read(p, 384 * KIB + JUMP_SLACK + 1, 4 * KIB);
  assert.deepEqual(p.view(), { runBytes: 4 * KIB, longestRun: 384 * KIB, jumps: 1 });
});

test("a WebDAV GET's run starts where its range does", () => {
  const p = new ReadPattern(700 * 1024 * KIB);
  read(p, 700 * 1024 * KIB, 64 * KIB);
  read(p, 700 * 1024 * KIB + 64 * KIB, 64 * KIB);
  assert.deepEqual(p.view(), { runBytes: 128 * KIB, longestRun: 128 * KIB, jumps: 0 });
});
