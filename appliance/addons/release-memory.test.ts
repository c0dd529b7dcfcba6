import assert from 'node:assert/strict';
import { test } from 'node:test';
import { releaseMemory, releaseUnavailable } from './release-memory.js';

test('releaseMemory: buffers a job dropped are collected and their pages given back (the addon is built)', () => {
  assert.equal(releaseUnavailable, '');
  // 160 MiB in 64 KiB buffers (under glibc's mmap threshold: they live in its heap), kept, then dropped
  let held: Buffer[] | null = Array.from({ length: 2560 }, (_, i) => Buffer.alloc(64 * 1024, i));
  assert.equal(held.length, 2560);
  held = null;
  const released = releaseMemory();
  assert.ok(released);
  const mib = (n: number) => n / 2 ** 20;
  assert.ok(
    mib(released.rssBefore - released.rssAfter) > 64,
    `RSS ${mib(released.rssBefore).toFixed(0)} -> ${mib(released.rssAfter).toFixed(0)} MiB`,
  );
});
