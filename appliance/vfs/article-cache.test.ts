import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ArticleCache } from './article-cache.js';
import type { ArticleSource } from './article-fetcher.js';
import { ReadStream } from './read-stream.js';
import { VfsReader, type ReaderSettings } from './reader.js';
import { MapSource, memoryArticles, tempVfs } from '../../tests/support/vfs/memory.js';

const t = tempVfs();
after(() => t.close());
const ARTICLE = 100_000;
const bytes = randomBytes(40 * ARTICLE);
const { layout, articles } = memoryArticles(bytes, ARTICLE, 'c');
const PATH = '/complete/c/J/f.bin';
// A cache of three articles, so a stream of forty evicts constantly.
const settings: ReaderSettings = {
  cacheBytes: 3 * ARTICLE,
  workersPerStream: 2,
  zeroFill: { enabled: false, maxHoleBytes: 0, maxHolesPerFile: 0, maxFileShare: 0 },
};

/** Decodes like the NNTP pool does: into the offered buffer when it is large enough. Records the buffers used. */
class IntoSource implements ArticleSource {
  used = new Set<ArrayBufferLike>();
  fetches = 0;
  async fetch(messageId: string, opts: { into?: Buffer }): Promise<Uint8Array> {
    await new Promise((r) => setImmediate(r));
    const src = articles.get(messageId) as Buffer;
    this.fetches++;
    if (!opts.into || opts.into.length < src.length) return Buffer.from(src);
    src.copy(opts.into);
    this.used.add(opts.into.buffer);
    return opts.into.subarray(0, src.length);
  }
}

before(async () => {
  await t.vfs.addJob({ category: 'c', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

test('evicted articles lend their buffers to the next fetches; the cache counts what it really holds', async () => {
  const source = new IntoSource();
  const reader = new VfsReader(t.vfs, source, () => settings);
  const parts: Buffer[] = [];
  for await (const c of reader.read(PATH, 0, bytes.length, new AbortController().signal)) parts.push(Buffer.from(c));
  assert.ok(Buffer.concat(parts).equals(bytes));
  assert.equal(source.fetches, 40);
  assert.ok(source.used.size <= 6, `40 articles decoded into ${source.used.size} buffers`);
  const cache = reader.fetcher.cache;
  assert.ok(cache.size <= settings.cacheBytes, 'cached articles stay within the budget');
  assert.ok(cache.spare <= settings.cacheBytes, 'spare buffers are few');
});

test('a buffer is never reused while a reader still holds its bytes', async () => {
  const source = new IntoSource();
  const reader = new VfsReader(t.vfs, source, () => settings);
  const slow = reader.read(PATH, 0, ARTICLE, new AbortController().signal)[Symbol.asyncIterator]();
  const held = await slow.next(); // a slow client: the chunk of article 0 is being written out
  const copy = Buffer.from(held.value as Uint8Array);
  for await (const c of reader.read(PATH, ARTICLE, 30 * ARTICLE, new AbortController().signal)) void c; // evicts article 0 many times over
  assert.ok(Buffer.from(held.value as Uint8Array).equals(copy), 'the held bytes did not change under the reader');
  assert.ok(copy.equals(bytes.subarray(0, ARTICLE)));
  await slow.return?.(undefined);
});

test('sources that ignore the offered buffer, and foreign buffers, are never recycled', async () => {
  const cache = new ArticleCache(2 * ARTICLE);
  const foreign = bytes.subarray(0, ARTICLE);
  cache.add('x', foreign);
  cache.add('y', bytes.subarray(ARTICLE, 2 * ARTICLE));
  cache.add('z', bytes.subarray(2 * ARTICLE, 3 * ARTICLE)); // evicts x
  assert.equal(cache.spare, 0, "a view of someone else's buffer is left alone");
  const reader = new VfsReader(t.vfs, new MapSource(articles), () => settings);
  const parts: Buffer[] = [];
  for await (const c of reader.read(PATH, 0, 10 * ARTICLE, new AbortController().signal)) parts.push(Buffer.from(c));
  assert.ok(Buffer.concat(parts).equals(bytes.subarray(0, 10 * ARTICLE)));
  assert.ok(bytes.subarray(0, ARTICLE).equals(foreign));
});

test('FUSE-style reads a little out of order keep the read-ahead; a real seek drops it', async () => {
  const source = new MapSource(articles);
  const roomy = { ...settings, cacheBytes: 12 * ARTICLE }; // room for what is read ahead
  const reader = new VfsReader(t.vfs, source, () => roomy);
  const stream = new ReadStream(reader, PATH, () => 4);
  const sig = new AbortController().signal;
  const buf = Buffer.alloc(ARTICLE);
  const chunk = 32_768;
  // Two reads in flight at once, answered in either order, as the kernel sends them.
  for (let off = 0; off < 6 * ARTICLE; off += 2 * chunk) {
    await Promise.all([
      stream.readInto(Buffer.alloc(chunk), off + chunk, chunk, sig),
      stream.readInto(Buffer.alloc(chunk), off, chunk, sig),
    ]);
  }
  await new Promise((r) => setTimeout(r, 10));
  const fetched = new Set(source.fetched);
  assert.ok(fetched.has('c9@test'), `read-ahead kept going: ${[...fetched].join(' ')}`);
  assert.ok(source.cancelled === 0, 'nothing was cancelled');
  await stream.readInto(buf, 30 * ARTICLE, 1000, sig); // a seek
  await new Promise((r) => setTimeout(r, 10));
  // the seek's own article, then a short read-ahead (SEEK_AHEAD, 4) rather than the whole window
  assert.deepEqual(source.fetched.slice(fetched.size), ['c30@test', 'c31@test', 'c32@test', 'c33@test']);
  assert.equal(source.urgent.at(-1), 'c30@test', 'the article the reader waits for goes first');
  stream.close();
});

test('a cache smaller than the fetches in flight never hands a reader another article', async () => {
  // Fetches finish in random order, each decoding into a buffer the cache lends; with room for one article and
  // six in flight per reader, every add evicts, often the entry being added (the bug: its buffer went to the next
  // fetch before the waiting readers pinned it, and they read the neighbouring article).
  class ShuffledSource extends IntoSource {
    override async fetch(messageId: string, opts: { into?: Buffer }): Promise<Uint8Array> {
      await new Promise((r) => setTimeout(r, Math.random() * 3));
      return super.fetch(messageId, opts);
    }
  }
  const tiny = { ...settings, cacheBytes: ARTICLE, workersPerStream: 6 };
  const reader = new VfsReader(t.vfs, new ShuffledSource(), () => tiny);
  const readOne = async (offset: number, length: number) => {
    const parts: Buffer[] = [];
    for await (const c of reader.read(PATH, offset, length, new AbortController().signal)) parts.push(Buffer.from(c));
    assert.ok(Buffer.concat(parts).equals(bytes.subarray(offset, offset + length)), `bytes ${offset}+${length}`);
  };
  for (let round = 0; round < 5; round++) {
    await Promise.all(
      Array.from({ length: 4 }, () => {
        const offset = Math.floor(Math.random() * 30 * ARTICLE);
        return readOne(offset, Math.min(bytes.length - offset, 8 * ARTICLE + 17));
      }),
    );
  }
});
