import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ReadHandles } from './read-handle.js';
import { VfsReader } from './reader.js';
import type { ArticleSource, FetchHow } from './article-fetcher.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { PLAY_RUN_BYTES } from './read-pattern.js';
import { SCANNER_READ_AHEAD, SCANNER_WINDOW } from './stream-window.js';

// Reader classes reach the pool: every fetch a read handle starts says who reads (docs/streaming.md).
const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(140_000);
const { layout, articles } = memoryArticles(bytes, 7_000); // 20 articles
const PATH = '/complete/x/K/f.bin';
const sig = new AbortController().signal;

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'K', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

function setup(kind: 'player' | 'scanner' | undefined) {
  const inner = new MapSource(articles);
  const asked: Array<{ id: string } & FetchHow> = [];
  const source: ArticleSource = {
    fetch: (id, opts) => {
      asked.push({ id, urgent: opts.urgent, reader: opts.reader, readAhead: opts.readAhead, stream: opts.stream });
      return inner.fetch(id, opts);
    },
  };
  const handles = new ReadHandles(new VfsReader(t.vfs, source, testReaderSettings), { now: () => 0 });
  handles.classifyWith(() => kind);
  return { handles, asked };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

test("a player's FUSE reads: the read's articles on the player lane, what it reads ahead marked read-ahead", async () => {
  const { handles, asked } = setup('player');
  const h = handles.open(PATH, 'fuse', { pid: 42 }, { readAhead: () => 6 });
  await h.readInto(Buffer.alloc(4096), 0, 4096, sig);
  await h.readInto(Buffer.alloc(4096), 4096, 4096, sig);
  await settle();
  assert.ok(asked.every((a) => a.reader === 'player' && a.stream === h.id));
  assert.deepEqual(
    asked.filter((a) => !a.readAhead).map((a) => a.id),
    ['a0@test'],
  );
  assert.deepEqual(
    asked.filter((a) => a.readAhead).map((a) => a.id),
    ['a1@test', 'a2@test'],
    'a read short of a run of playback earns one article past the one it ended in (it may be a probe)',
  );
  h.close();
});

test('a scanner reads ahead one article once it has read one, never more than it read, and none after a seek', async () => {
  const { handles, asked } = setup('scanner');
  const h = handles.open(PATH, 'fuse', { pid: 43, userAgent: 'ffprobe' }, { readAhead: () => 6 });
  await h.readInto(Buffer.alloc(4096), 0, 4096, sig); // the head: no probe read-ahead
  await settle();
  assert.deepEqual(
    asked.map((a) => a.id),
    ['a0@test'],
  );
  // sequential, but its run (4 KiB) is less than an article: it fetches what it reads (a1), nothing past it
  await h.readInto(Buffer.alloc(4096), 4096, 4096, sig);
  await settle();
  assert.deepEqual(
    asked.map((a) => [a.id, a.readAhead]),
    [
      ['a0@test', false],
      ['a1@test', false],
    ],
  );
  await h.readInto(Buffer.alloc(4096), 8192, 4096, sig); // its run (8 KiB) passed an article: SCANNER_READ_AHEAD
  await settle();
  assert.deepEqual(
    asked.filter((a) => a.readAhead).map((a) => a.id),
    ['a2@test'],
  );
  assert.equal(SCANNER_READ_AHEAD, 1);
  const before = asked.length;
  await h.readInto(Buffer.alloc(4096), 133_000, 4096, sig); // the tail: a seek
  await settle();
  assert.deepEqual(
    asked.slice(before).map((a) => a.id),
    ['a19@test'],
  );
  assert.ok(asked.every((a) => a.reader === 'scanner'));
  h.close();
});

test("a scanner's WebDAV range fetches one article ahead only once it read one, never more than SCANNER_WINDOW; a player's the whole window", async () => {
  for (const kind of ['scanner', 'player'] as const) {
    const { handles, asked } = setup(kind);
    const h = handles.open(PATH, 'webdav', { address: '10.0.0.1' });
    const it = h.stream(7_000, 70_000, sig)[Symbol.asyncIterator]();
    await it.next();
    const started = asked.length;
    await it.next();
    await it.next();
    const later = asked.length;
    await it.return(undefined);
    if (kind === 'scanner') {
      assert.equal(started, 1, 'nothing ahead before it read anything');
      assert.equal(later, 2 + SCANNER_WINDOW, 'one article ahead of the one it reads');
    } else assert.ok(started > SCANNER_WINDOW, `the reader's window (${started})`);
    assert.ok(asked.every((a) => a.reader === kind));
    h.close();
  }
});

test("a WebDAV GET's fetches follow its class as it changes while it reads, told what the handle has read", async () => {
  const inner = new MapSource(articles);
  const asked: Array<{ id: string } & FetchHow> = [];
  const source: ArticleSource = {
    fetch: (id, opts) => {
      asked.push({ id, reader: opts.reader });
      return inner.fetch(id, opts);
    },
  };
  const handles = new ReadHandles(new VfsReader(t.vfs, source, testReaderSettings), { now: () => 0 });
  const seen: number[] = [];
  // a scanner until it has read 20 KB in a row (the classifier's own rule is its test's: reader-class.test.ts)
  handles.classifyWith((_id, facts) => {
    seen.push(facts.runBytes);
    return facts.runBytes >= 20_000 ? 'player' : 'scanner';
  });
  const h = handles.open(PATH, 'webdav', { address: '10.0.0.1' }, { offset: 0 });
  let got = 0;
  for await (const chunk of h.stream(0, bytes.length, sig)) got += chunk.byteLength;
  assert.equal(got, bytes.length);
  assert.equal(asked[0]?.reader, 'scanner');
  assert.equal(asked.at(-1)?.reader, 'player', 'the GET moved to the player lanes once it read on');
  assert.ok(seen.some((n) => n >= 20_000));
  h.close();
});

test('unclassified (no classifier wired), a handle reads as a player', async () => {
  const { handles, asked } = setup(undefined);
  const h = handles.open(PATH, 'fuse', {}, { readAhead: () => 2 });
  await h.readInto(Buffer.alloc(100), 0, 100, sig);
  assert.equal(asked[0]?.reader, 'player');
  h.close();
});

test("a player's read that lands on an article still being read ahead asks the source to move it up", async () => {
  const inner = new MapSource(articles);
  const promoted: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const source: ArticleSource = {
    fetch: async (id, opts) => {
      if (id === 'a3@test') await gate; // still on the wire when the player gets there
      return inner.fetch(id, opts);
    },
    promote: (id) => promoted.push(id),
  };
  const handles = new ReadHandles(new VfsReader(t.vfs, source, testReaderSettings), { now: () => 0 });
  const h = handles.open(PATH, 'fuse', { pid: 44 }, { readAhead: () => 6 });
  await h.readInto(Buffer.alloc(4096), 0, 4096, sig); // reads ahead article 1
  // a seek reads ahead what follows it whoever reads: articles 4-...; then a read of article 3 joins it
  await h.readInto(Buffer.alloc(4096), 14_000, 4096, sig);
  const read = h.readInto(Buffer.alloc(4096), 21_000, 4096, sig); // article 3
  assert.deepEqual(promoted, ['a3@test']);
  release();
  assert.equal(await read, 4096);
  h.close();
});

test('a FUSE open reads ahead no more articles than its run has read until it read a run of playback, then its window', async () => {
  const big = randomBytes(1_600_000);
  const m = memoryArticles(big, 16_000); // 100 articles
  await t.vfs.addJob({ category: 'x', jobName: 'L', files: [{ name: 'g.bin', size: big.length, layout: m.layout }] });
  const inner = new MapSource(m.articles);
  const asked: number[] = [];
  const source: ArticleSource = {
    fetch: (id, opts) => {
      asked.push(Number(/a(\d+)@/.exec(id)![1]));
      return inner.fetch(id, opts);
    },
  };
  const settings = () => ({ ...testReaderSettings(), cacheBytes: 32 << 20 });
  const handles = new ReadHandles(new VfsReader(t.vfs, source, settings), { now: () => 0 });
  handles.classifyWith(() => 'player');
  const h = handles.open('/complete/x/L/g.bin', 'fuse', {}, { readAhead: () => 20 });
  const buf = Buffer.alloc(64 * 1024);
  await h.readInto(buf, 0, 4096, sig); // the header: one article ahead
  await settle();
  assert.equal(Math.max(...asked), 1);
  await h.readInto(buf, 16_000, 4096, sig); // looks sequential (as a probe's second read does): its run is 8 KiB
  await settle();
  assert.equal(Math.max(...asked), 2, 'one article past the one the read ended in');
  let at = 20_096;
  while (at < 20_096 + PLAY_RUN_BYTES) {
    await h.readInto(buf, at, buf.length, sig);
    at += buf.length;
  }
  await h.readInto(buf, at, buf.length, sig);
  await settle();
  const article = Math.floor((at + buf.length) / 16_000);
  assert.equal(Math.max(...asked), article + 20 - 1, 'the whole window once it read a run of playback');
  h.close();
});
