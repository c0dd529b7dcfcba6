import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { NntpError } from '../nntp/errors.js';
import type { ArticleSource, FetchHow } from './article-fetcher.js';
import { PROBE_FILE_HEADER, ProbeCache, probeCacheFileOf } from './probe-cache.js';
import { probeCachedSource } from './probe-cached-source.js';
import { VfsReader, VfsReadError } from './reader.js';

// The probe cache under the reader (docs/streaming.md, "The probe cache"): a media file's first and last articles
// are kept as they are read, and served from disk afterwards without asking the providers.
const t = tempVfs();
const dir = mkdtempSync(join(tmpdir(), 'spool-probe-source-'));
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});
const bytes = randomBytes(70_000);
const { layout, articles } = memoryArticles(bytes, 7_000); // 10 articles: a0..a9
const MEDIA = '/complete/x/P/Film.2024.mkv';
const OTHER = '/complete/x/P/notes.bin';
const sig = new AbortController().signal;

before(async () => {
  await t.vfs.addJob({
    category: 'x',
    jobName: 'P',
    files: [
      { name: 'Film.2024.mkv', size: bytes.length, layout },
      { name: 'notes.bin', size: bytes.length, layout },
    ],
  });
});

/** A reader with a fresh memory cache over `source`: what it fetched is what reached `source`. */
function readerOver(source: ArticleSource) {
  return new VfsReader(t.vfs, source, testReaderSettings);
}

async function readAll(reader: VfsReader, path: string, offset: number, length: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of reader.read(path, offset, length, sig)) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

function recording(inner: ArticleSource) {
  const asked: Array<{ id: string } & FetchHow> = [];
  const source: ArticleSource = {
    fetch: (id, opts) => {
      asked.push({ id, keep: opts.keep, reader: opts.reader, urgent: opts.urgent });
      return inner.fetch(id, opts);
    },
  };
  return { source, asked };
}

test("a read marks a media file's first and last articles to keep, and nothing else", async () => {
  const { source, asked } = recording(new MapSource(articles));
  const reader = readerOver(source);
  await readAll(reader, MEDIA, 0, 100); // a0
  await readAll(reader, MEDIA, 30_000, 100); // a4
  await readAll(reader, MEDIA, bytes.length - 100, 100); // a9
  await readAll(reader, OTHER, 0, 100); // not a media file (a0 again, but the memory cache has it)
  await readAll(readerOver(source), OTHER, bytes.length - 100, 100);
  assert.deepEqual(
    asked.map((a) => [a.id, a.keep === true]),
    [
      ['a0@test', true],
      ['a4@test', false],
      ['a9@test', true],
      ['a9@test', false],
    ],
  );
});

test("a scanner's first article of a read is kept wherever it lies (an index in the middle)", async () => {
  const { source, asked } = recording(new MapSource(articles));
  const reader = readerOver(source);
  const parts = [];
  for await (const c of reader.readFile(
    t.vfs.requireNode(MEDIA),
    t.vfs.layout(t.vfs.requireNode(MEDIA)),
    30_000,
    100,
    sig,
    { reader: 'scanner' },
  ))
    parts.push(c);
  assert.deepEqual(
    asked.map((a) => [a.id, a.keep === true]),
    [['a4@test', true]],
  );
});

test('kept articles are served from disk afterwards: the providers are not asked again, the bytes are the same', async () => {
  const cache = new ProbeCache(join(dir, 'served'), () => 1e9);
  await cache.ready;
  const pool = new MapSource(articles);
  const first = readerOver(probeCachedSource(cache, pool));
  const head = await readAll(first, MEDIA, 0, 7_000);
  const tail = await readAll(first, MEDIA, 63_000, 7_000);
  await cache.idle();
  assert.deepEqual(pool.fetched, ['a0@test', 'a9@test']);
  assert.equal(cache.articles, 2);

  // a fresh reader (an empty memory cache, as after a restart): nothing reaches the pool for the head and tail
  const second = readerOver(probeCachedSource(cache, pool));
  assert.ok((await readAll(second, MEDIA, 0, 7_000)).equals(head));
  assert.ok((await readAll(second, MEDIA, 63_000, 7_000)).equals(tail));
  assert.ok(head.equals(bytes.subarray(0, 7_000)) && tail.equals(bytes.subarray(63_000)));
  assert.deepEqual(pool.fetched, ['a0@test', 'a9@test']);
  assert.equal(cache.counts.hits, 2);
  // the middle is the pool's
  await readAll(second, MEDIA, 30_000, 100);
  assert.deepEqual(pool.fetched, ['a0@test', 'a9@test', 'a4@test']);
});

test('a failed fetch is not kept, and the failure reaches the reader as it was (no evidence invented)', async () => {
  const cache = new ProbeCache(join(dir, 'failed'), () => 1e9);
  await cache.ready;
  const pool = new MapSource(articles);
  pool.failWith = new NntpError('no_provider', 'every provider is down', true);
  const reader = readerOver(probeCachedSource(cache, pool));
  await assert.rejects(readAll(reader, MEDIA, 0, 100), (err: unknown) => {
    assert.ok(err instanceof VfsReadError);
    assert.equal(err.evidence, undefined, 'an outage is no evidence');
    return true;
  });
  await cache.idle();
  assert.equal(cache.articles, 0);
});

test('a damaged cache file is never served and never counts against the article: the pool serves it', async () => {
  const cache = new ProbeCache(join(dir, 'damaged'), () => 1e9);
  await cache.ready;
  const pool = new MapSource(articles);
  await readAll(readerOver(probeCachedSource(cache, pool)), MEDIA, 0, 100);
  await cache.idle();
  const file = probeCacheFileOf(join(dir, 'damaged'), 'a0@test');
  const onDisk = readFileSync(file);
  onDisk[PROBE_FILE_HEADER + 1]! ^= 1;
  writeFileSync(file, onDisk);
  const events: string[] = [];
  const reader = new VfsReader(t.vfs, probeCachedSource(cache, pool), testReaderSettings, {
    emit: (name: string) => void events.push(name),
  } as never);
  assert.ok((await readAll(reader, MEDIA, 0, 7_000)).equals(bytes.subarray(0, 7_000)));
  assert.deepEqual(pool.fetched, ['a0@test', 'a0@test']);
  assert.equal(cache.counts.damaged, 1);
  assert.deepEqual(events, [], 'no article failure reported');
  await cache.idle();
  assert.equal(cache.holds('a0@test'), true, 'kept again, whole');
});

test('an article marked unavailable that the cache holds is served, but no recovery is reported', async () => {
  const cache = new ProbeCache(join(dir, 'marked'), () => 1e9);
  await cache.ready;
  const pool = new MapSource(articles);
  await readAll(readerOver(probeCachedSource(cache, pool)), MEDIA, 0, 100);
  await cache.idle();
  t.verdicts.marks.set(MEDIA, new Set(['a0@test', 'a9@test']));
  const recovered: string[] = [];
  const stop = t.events.on('read.article.recovered', (r) => recovered.push(...r.messageIds));
  try {
    const reader = new VfsReader(t.vfs, probeCachedSource(cache, pool), testReaderSettings, t.events);
    assert.ok((await readAll(reader, MEDIA, 0, 100)).equals(bytes.subarray(0, 100)), 'served from disk');
    assert.deepEqual(recovered, [], 'bytes from disk are no news about the providers');
    await readAll(reader, MEDIA, bytes.length - 100, 100); // a9 from the pool: a real recovery
    assert.deepEqual(recovered, ['a9@test']);
  } finally {
    stop();
    t.verdicts.marks.clear();
  }
});
