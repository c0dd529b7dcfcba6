import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore, storeDataFile } from '../store/index.js';
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

test('releaseMemory: the pages of a mapped LMDB file the process read are no longer resident; the data reads the same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-release-'));
  const store = openStore({ rootPath: dir });
  try {
    const db = store.openDb<Buffer>('blobs', { encoding: 'binary' });
    await db.transaction(() => {
      for (let i = 0; i < 64; i++) void db.put(`k${i}`, Buffer.alloc(1 << 20, i));
    });
    let sum = 0;
    for (let i = 0; i < 64; i++) sum += db.get(`k${i}`)![1000]!; // every page read through the map
    const before = rssFileMib();
    assert.ok(releaseMemory([storeDataFile(dir)]));
    const after = rssFileMib();
    assert.ok(before - after > 48, `file-backed RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MiB`);
    let again = 0;
    for (let i = 0; i < 64; i++) again += db.get(`k${i}`)![1000]!;
    assert.equal(again, sum);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function rssFileMib(): number {
  return Number(/RssFile:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
}
