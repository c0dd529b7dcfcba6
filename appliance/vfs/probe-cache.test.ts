import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { memoryLogger } from '../logging/logger.js';
import { PROBE_FILE_HEADER, ProbeCache, probeCacheFileOf } from './probe-cache.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-probe-cache-'));
  dirs.push(dir);
  return join(dir, 'probe-cache');
};

const article = (seed: number, size = 1000) => Buffer.alloc(size, seed);
const onDisk = (size: number) => PROBE_FILE_HEADER + size;

/** Puts and waits until the write has landed (writes are asynchronous). */
async function putAndWait(cache: ProbeCache, id: string, data: Buffer) {
  cache.put(id, data);
  await cache.idle();
}

test('an article put is served back byte for byte, with or without its angle brackets, and after a restart', async () => {
  const dir = tempDir();
  const cache = new ProbeCache(dir, () => 1e9);
  await cache.ready;
  const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  await putAndWait(cache, '<a@b>', data);
  assert.deepEqual(Buffer.from((await cache.get('a@b'))!), data);
  assert.equal(cache.counts.hits, 1);
  assert.equal(cache.size, onDisk(5000));

  const reopened = new ProbeCache(dir, () => 1e9);
  await reopened.ready;
  assert.ok(reopened.holds('<a@b>'));
  assert.deepEqual(Buffer.from((await reopened.get('<a@b>'))!), data);
  assert.equal(await reopened.get('<other@b>'), undefined);
});

test('a read goes into the buffer it is given when that is large enough', async () => {
  const cache = new ProbeCache(tempDir(), () => 1e9);
  await cache.ready;
  await putAndWait(cache, 'x@y', article(7, 300));
  const into = Buffer.alloc(1000);
  const got = (await cache.get('x@y', into))!;
  assert.equal(got.buffer, into.buffer);
  assert.equal(got.byteLength, 300);
  assert.ok(Buffer.from(got).equals(article(7, 300)));
  const small = Buffer.alloc(10);
  assert.notEqual((await cache.get('x@y', small))!.buffer, small.buffer);
});

test('over its budget the least recently used articles go first; a read counts as a use', async () => {
  const dir = tempDir();
  const cache = new ProbeCache(dir, () => 3 * onDisk(1000));
  await cache.ready;
  for (const id of ['a@x', 'b@x', 'c@x']) await putAndWait(cache, id, article(1));
  await cache.get('a@x'); // a is now the most recently used: b is the oldest
  await putAndWait(cache, 'd@x', article(2));
  assert.deepEqual(
    ['a@x', 'b@x', 'c@x', 'd@x'].map((id) => cache.holds(id)),
    [true, false, true, true],
  );
  assert.equal(cache.counts.evicted, 1);
  assert.ok(cache.size <= 3 * onDisk(1000));
  // the file went with it
  for (let i = 0; i < 200 && existsSync(probeCacheFileOf(dir, 'b@x')); i++) await new Promise((r) => setImmediate(r));
  assert.equal(existsSync(probeCacheFileOf(dir, 'b@x')), false);
});

test('an article larger than the whole budget is not kept', async () => {
  const cache = new ProbeCache(tempDir(), () => onDisk(100));
  await cache.ready;
  cache.put('big@x', article(1, 101));
  await cache.idle();
  assert.equal(cache.holds('big@x'), false);
  assert.equal(cache.counts.stored, 0);
});

test('a budget of 0 keeps nothing and empties what was kept (read live)', async () => {
  const dir = tempDir();
  let budget = 1e9;
  const cache = new ProbeCache(dir, () => budget);
  await cache.ready;
  await putAndWait(cache, 'a@x', article(1));
  budget = 0;
  assert.equal(await cache.get('a@x'), undefined);
  assert.equal(cache.articles, 0);
  assert.equal(cache.size, 0);
  cache.put('b@x', article(2));
  await cache.idle();
  assert.equal(cache.holds('b@x'), false);
  for (let i = 0; i < 200 && existsSync(probeCacheFileOf(dir, 'a@x')); i++) await new Promise((r) => setImmediate(r));
  assert.equal(existsSync(probeCacheFileOf(dir, 'a@x')), false);
});

test('a damaged file is never served: it is removed and the article is asked of the providers again', async () => {
  const dir = tempDir();
  const logger = memoryLogger();
  const cache = new ProbeCache(dir, () => 1e9, logger);
  await cache.ready;
  await putAndWait(cache, 'a@x', article(1));
  await putAndWait(cache, 'b@x', article(2));
  const a = probeCacheFileOf(dir, 'a@x');
  const bytes = readFileSync(a);
  bytes[PROBE_FILE_HEADER + 10]! ^= 0xff; // one flipped bit of the article: the CRC disagrees
  writeFileSync(a, bytes);
  writeFileSync(probeCacheFileOf(dir, 'b@x'), readFileSync(probeCacheFileOf(dir, 'b@x')).subarray(0, 500)); // torn
  assert.equal(await cache.get('a@x'), undefined);
  assert.equal(await cache.get('b@x'), undefined);
  assert.equal(cache.counts.damaged, 2);
  assert.equal(cache.holds('a@x'), false);
  assert.equal(cache.size, 0);
  assert.ok(logger.lines.some((l) => l.includes('a damaged file was removed')));
  // put again, it is served again
  await putAndWait(cache, 'a@x', article(1));
  assert.ok(Buffer.from((await cache.get('a@x'))!).equals(article(1)));
});

test('at open, files are taken in their use order, temporary files a crash left are removed, foreign names ignored', async () => {
  const dir = tempDir();
  const first = new ProbeCache(dir, () => 1e9);
  await first.ready;
  for (const id of ['old@x', 'new@x']) await putAndWait(first, id, article(1));
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(probeCacheFileOf(dir, 'old@x'), past, past);
  const shard = readdirSync(dir)[0]!;
  writeFileSync(join(dir, shard, `${'0'.repeat(64)}.tmp-123`), 'half');
  mkdirSync(join(dir, 'not-a-shard'));
  // a budget for one article: the older one goes at open
  const reopened = new ProbeCache(dir, () => onDisk(1000));
  await reopened.ready;
  assert.equal(reopened.holds('new@x'), true);
  assert.equal(reopened.holds('old@x'), false);
  assert.equal(
    readdirSync(join(dir, shard)).some((n) => n.includes('.tmp-')),
    false,
  );
});

test('a disk that refuses the write is logged once and nothing is kept; the caller never sees an error', async () => {
  const dir = tempDir();
  writeFileSync(dir, 'a file where the folder should be'); // refuses even root
  const logger = memoryLogger();
  const cache = new ProbeCache(dir, () => 1e9, logger);
  await cache.ready;
  cache.put('a@x', article(1));
  cache.put('b@x', article(2));
  await cache.idle();
  assert.equal(logger.lines.filter((l) => l.includes('could not be written')).length, 1);
  assert.equal(cache.articles, 0);
});
