import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ReadStream } from './read-stream.js';
import { VfsReader, type ReaderSettings } from './reader.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';

// ReadStream.readCached: the synchronous path FUSE reads take when the read-ahead already holds the articles.
const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(50_000);
const { layout, articles } = memoryArticles(bytes, 7_000);
const PATH = '/complete/x/J/f.bin';
const settings: ReaderSettings = testReaderSettings();
const sig = new AbortController().signal;
const settle = () => new Promise((r) => setTimeout(r, 10));

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

test('null (and no side effect) until the articles are in memory, then byte-exact without a fetch', async () => {
  const source = new MapSource(articles);
  const stream = new ReadStream(new VfsReader(t.vfs, source, () => settings), PATH, () => 3);
  const buf = Buffer.alloc(10_000, 0xee);
  assert.equal(stream.readCached(buf, 0, 10_000), null);
  assert.deepEqual(buf, Buffer.alloc(10_000, 0xee), 'a miss writes nothing');
  assert.equal(source.fetched.length, 0, 'a miss starts no fetch');
  assert.equal(await stream.readInto(buf, 0, 4096, sig), 4096); // article 0, read-ahead through article 2
  await settle();
  assert.deepEqual(source.fetched, ['a0@test', 'a1@test', 'a2@test']);
  // Across the article 0/1 boundary, from memory only.
  assert.equal(stream.readCached(buf, 4096, 10_000), 10_000);
  assert.deepEqual(buf, bytes.subarray(4096, 14_096));
  await settle();
  assert.deepEqual(source.fetched, ['a0@test', 'a1@test', 'a2@test', 'a3@test', 'a4@test'], 'the read-ahead moves on');
  stream.close();
});

test('sequential cached reads keep the read-ahead going; the end of the file is short, then 0', async () => {
  const source = new MapSource(articles);
  const stream = new ReadStream(new VfsReader(t.vfs, source, () => settings), PATH, () => 3);
  const out = Buffer.alloc(bytes.length);
  const chunk = 3_000;
  for (let off = 0; off < bytes.length; off += chunk) {
    const view = out.subarray(off, Math.min(bytes.length, off + chunk));
    const n = stream.readCached(view, off, chunk) ?? (await stream.readInto(view, off, chunk, sig));
    assert.equal(n, Math.min(chunk, bytes.length - off));
    await settle();
  }
  assert.deepEqual(out, bytes);
  assert.deepEqual(new Set(source.fetched).size, source.fetched.length, 'each article fetched once');
  assert.equal(stream.readCached(Buffer.alloc(10), bytes.length, 10), 0);
  stream.close();
});

test('a cached article of the wrong size is never served from memory', async () => {
  const bad = new Map(articles);
  bad.set('a1@test', (articles.get('a1@test') as Buffer).subarray(0, 6_000));
  const stream = new ReadStream(new VfsReader(t.vfs, new MapSource(bad), () => settings), PATH, () => 3);
  await stream.readInto(Buffer.alloc(100), 0, 100, sig);
  await settle(); // article 1 (short) is now in the cache
  assert.equal(stream.readCached(Buffer.alloc(100), 7_000, 100), null);
  await assert.rejects(stream.readInto(Buffer.alloc(100), 7_000, 100, sig), /decoded 6000 bytes, expected 7000/);
  stream.close();
});

test('reads that arrive out of order (the kernel sends several at once) keep the read-ahead; a real seek drops it', async () => {
  const source = new MapSource(articles, 30);
  const stream = new ReadStream(new VfsReader(t.vfs, source, () => settings), PATH, () => 3);
  const buf = Buffer.alloc(100);
  await stream.readInto(buf, 0, 100, sig); // article 0; read-ahead 1-2
  await stream.readInto(buf, 7_000, 100, sig); // article 1; read-ahead through 3
  assert.equal(await stream.readInto(buf, 14_000, 100, sig), 100); // article 2; read-ahead through 4, 3-4 in flight
  assert.equal(stream.readCached(buf, 100, 100) ?? (await stream.readInto(buf, 100, 100, sig)), 100); // two articles behind
  assert.deepEqual(buf, bytes.subarray(100, 200));
  assert.equal(source.cancelled, 0, 'a late read is not a seek');
  await stream.readInto(buf, 45_000, 100, sig); // article 6: past the window, a seek
  assert.ok(source.cancelled > 0, 'the seek cancelled the read-ahead still in flight');
  assert.equal(new Set(source.fetched).size, source.fetched.length, 'nothing fetched twice');
  stream.close();
});
