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
  await h.readInto(Buffer.alloc(4096), 0, 2048, sig); // the head: no probe read-ahead
  await settle();
  assert.deepEqual(
    asked.map((a) => a.id),
    ['a0@test'],
  );
  // sequential (it skips 4 KiB), but its run (4 KiB, this read's included) is less than an article: it fetches what
  // it reads (a1), nothing past it
  await h.readInto(Buffer.alloc(4096), 6000, 2000, sig);
  await settle();
  assert.deepEqual(
    asked.map((a) => [a.id, a.readAhead]),
    [
      ['a0@test', false],
      ['a1@test', false],
    ],
  );
  await h.readInto(Buffer.alloc(4096), 8000, 4096, sig); // its run (8 KiB) passed an article: SCANNER_READ_AHEAD
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

/** Handles over a source that holds `held` on the wire until released, and records what it is asked to move up. */
function promotingSource(held: string) {
  const inner = new MapSource(articles);
  const promoted: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const source: ArticleSource = {
    fetch: async (id, opts) => {
      if (id === held) await gate;
      return inner.fetch(id, opts);
    },
    promote: (id) => promoted.push(id),
  };
  return { source, promoted, release: () => release() };
}

test("a player's read that lands on an article still being read ahead asks the source to move it up", async () => {
  const { source, promoted, release } = promotingSource('a3@test'); // still on the wire when the player gets there
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

test("a read's later article still being read ahead is moved up too, not only a read's first one", async () => {
  // The kernel splits a FUSE read, and a read spans articles: the reader waits for each article of it, so one it
  // joins that was asked as read-ahead must leave the read-ahead lane, whichever of the read's articles it is.
  const { source, promoted, release } = promotingSource('a1@test'); // read ahead by the first read, on the wire
  const handles = new ReadHandles(new VfsReader(t.vfs, source, testReaderSettings), { now: () => 0 });
  handles.classifyWith(() => 'player');
  const h = handles.open(PATH, 'fuse', { pid: 45 }, { readAhead: () => 6 });
  await h.readInto(Buffer.alloc(4096), 0, 4096, sig); // article 0; reads ahead article 1
  // article 0 (in memory) then article 1: the read's second article, not urgent
  const read = h.readInto(Buffer.alloc(6000), 4096, 6000, sig);
  await settle();
  assert.deepEqual(promoted, ['a1@test']);
  release();
  assert.equal(await read, 6000);
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

/** A player's start-up through FUSE: 256 KiB articles (32), a window of 8, every fetch's promise kept to wait on. */
async function startUpFile(job: string) {
  const big = randomBytes(8 << 20);
  const m = memoryArticles(big, 256 * 1024);
  await t.vfs.addJob({ category: 'x', jobName: job, files: [{ name: 'p.bin', size: big.length, layout: m.layout }] });
  const inner = new MapSource(m.articles);
  const asked: number[] = [];
  const fetches: Promise<unknown>[] = [];
  const source: ArticleSource = {
    fetch: (id, opts) => {
      asked.push(Number(/a(\d+)@/.exec(id)![1]));
      const p = inner.fetch(id, opts);
      fetches.push(p);
      return p;
    },
  };
  const settings = () => ({ ...testReaderSettings(), cacheBytes: 32 << 20 });
  const handles = new ReadHandles(new VfsReader(t.vfs, source, settings), { now: () => 0 });
  handles.classifyWith(() => 'player');
  const h = handles.open(`/complete/x/${job}/p.bin`, 'fuse', {}, { readAhead: () => 8 });
  // every fetch asked so far has landed in the cache (the fetcher's own callbacks ran before this one)
  const landed = async () => {
    await Promise.allSettled(fetches);
    await new Promise(setImmediate);
  };
  return { h, asked, landed, size: big.length };
}

test("a player's return from its index served from memory reads ahead what it earned, not nothing", async () => {
  const { h, asked, landed, size } = await startUpFile('M');
  const buf = Buffer.alloc(1 << 20);
  await h.readInto(buf, 0, 256 * 1024, sig); // the header (article 0) ends where article 1 begins: 1-2 ahead
  await landed();
  assert.deepEqual(asked, [0, 1, 2]);
  // the index: the last two articles, nothing past them (512 KiB: a run of 1 MiB would be playback already)
  await h.readInto(buf, size - 512 * 1024, 512 * 1024, sig);
  await landed();
  assert.deepEqual(asked.slice(3), [30, 31]);
  // back to play from 256 KiB: articles 1-2, which the header read fetched, served from memory
  assert.equal(h.readCached(buf, 256 * 1024, 512 * 1024), 512 * 1024);
  assert.deepEqual(
    asked.slice(5),
    [3, 4, 5],
    'a seek served from memory reads ahead from where it ended as many articles as its run has read (two)',
  );
  h.close();
});

test("a probe's return to its first packets served from memory fetches nothing past the article it read", async () => {
  const { h, asked, landed, size } = await startUpFile('N');
  const buf = Buffer.alloc(32 * 1024);
  await h.readInto(buf, 0, buf.length, sig); // ffprobe's head: article 0, and one past it
  await landed();
  await h.readInto(buf, size - buf.length, buf.length, sig); // the moov at the tail
  await landed();
  assert.deepEqual(asked, [0, 1, 31]);
  assert.equal(h.readCached(buf, 40_000, buf.length), buf.length); // its first packets: article 0, in memory
  await landed();
  assert.deepEqual(asked, [0, 1, 31], 'its 32 KiB earned the article past it, which the head read fetched: no window');
  h.close();
});

test('the read that completes a run of playback reads ahead the whole window at once, not one read later', async () => {
  const { h, asked } = await startUpFile('O');
  const buf = Buffer.alloc(1 << 20);
  await h.readInto(buf, 0, 4096, sig); // the header: article 0 and one past it
  assert.deepEqual(asked, [0, 1]);
  // on from there to 1 MiB: its run reaches PLAY_RUN_BYTES with this read, so what follows it is the window
  await h.readInto(buf, 4096, PLAY_RUN_BYTES - 4096, sig);
  assert.deepEqual(asked.slice(2), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'articles 2-3 for the read, 4-11 ahead');
  h.close();
});
