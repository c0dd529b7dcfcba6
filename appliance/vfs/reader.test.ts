import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { AuthError, ConnectionResetError, NoProviderError, TimeoutError } from '../nntp/errors.js';
import { sliceLayout } from '../layout/index.js';
import { ReadStream } from './read-stream.js';
import { VfsReader, VfsReadError, findSegment, type ReaderSettings } from './reader.js';
import type { LinkFacts } from '../nntp/pool.js';
import { EventBus, type SpoolEvents } from '../events/index.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';

const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(100_000);
const { layout, articles } = memoryArticles(bytes, 7_000);
const PATH = '/complete/x/J/f.bin';
const settings: ReaderSettings = testReaderSettings();

async function collect(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

test('findSegment maps bytes to articles', () => {
  assert.equal(findSegment(layout.segments, 0), 0);
  assert.equal(findSegment(layout.segments, 6_999), 0);
  assert.equal(findSegment(layout.segments, 7_000), 1);
  assert.equal(findSegment(layout.segments, 99_999), 14);
});

test('reads any range byte-exact and fetches only the articles it covers', async () => {
  const source = new MapSource(articles, 1);
  const reader = new VfsReader(t.vfs, source, () => settings);
  assert.deepEqual(await collect(reader.read(PATH, 0, bytes.length, new AbortController().signal)), bytes);
  for (const [off, len] of [
    [6_999, 2],
    [13_500, 20_000],
    [99_000, 5_000],
    [0, 1],
  ] as const) {
    const fresh = new MapSource(articles);
    const r = new VfsReader(t.vfs, fresh, () => settings);
    const got = await collect(r.read(PATH, off, len, new AbortController().signal));
    assert.deepEqual(got, bytes.subarray(off, off + len));
    const want = new Set<number>();
    for (let p = off; p < Math.min(off + len, bytes.length); p++) want.add(Math.floor(p / 7_000));
    assert.equal(fresh.fetched.length, want.size, `range ${off}+${len}`);
  }
});

test('a missing article fails the read with VfsReadError, reports it, and never yields wrong bytes', async () => {
  const source = new MapSource(articles);
  source.missing.add('a3@test');
  const events = new EventBus<SpoolEvents>();
  const reader = new VfsReader(t.vfs, source, () => settings, events);
  const failures: string[] = [];
  events.on('read.article.failed', (f) => failures.push(f.messageId));
  const got: Buffer[] = [];
  await assert.rejects(async () => {
    for await (const c of reader.read(PATH, 0, bytes.length, new AbortController().signal)) got.push(Buffer.from(c));
  }, VfsReadError);
  assert.deepEqual(Buffer.concat(got), bytes.subarray(0, 21_000), 'only the bytes before the hole');
  assert.deepEqual(failures, ['a3@test']);
});

test('zero-fill covers a tiny hole only when enabled and within bounds', async () => {
  const source = new MapSource(articles);
  source.missing.add('a5@test');
  const z = { ...settings, zeroFill: { enabled: true, maxHoleBytes: 8_000, maxHolesPerFile: 1, maxFileShare: 0.1 } };
  const reader = new VfsReader(t.vfs, source, () => z);
  const got = await collect(reader.read(PATH, 30_000, 10_000, new AbortController().signal));
  assert.deepEqual(got.subarray(0, 5_000), bytes.subarray(30_000, 35_000));
  assert.ok(got.subarray(5_000).every((b) => b === 0));
  source.missing.add('a6@test');
  await assert.rejects(
    collect(reader.read(PATH, 42_000, 100, new AbortController().signal)),
    VfsReadError,
    'second hole is over the bound',
  );
});

test('cancelling a read cancels its fetches in flight', async () => {
  const source = new MapSource(articles, 200);
  const reader = new VfsReader(t.vfs, source, () => settings);
  const ac = new AbortController();
  // a bounded range (short of the end of the file): its whole window starts at once
  const p = collect(reader.read(PATH, 0, bytes.length - 1, ac.signal));
  setTimeout(() => ac.abort(), 20);
  await assert.rejects(p, { name: 'AbortError' });
  assert.equal(source.fetched.length, 4, 'only workersPerStream started');
  assert.equal(source.cancelled, 4);
});

/** A source on a measured link: 20 ms round trip, 4 articles' worth delivered per round trip. */
class LinkedSource extends MapSource {
  link(): LinkFacts {
    return { rttMs: 20, deliveryRate: (4 * 7_000) / 20, bodyBytes: 7_000, capacity: 100 };
  }
}

test('a read from byte 0 to the end (a player probing the header) starts with 3 articles and widens as it is consumed', async () => {
  const source = new LinkedSource(articles);
  const reader = new VfsReader(t.vfs, source, () => ({ ...settings, workersPerStream: 16 }));
  const it = reader.read(PATH, 0, bytes.length, new AbortController().signal)[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let r = await it.next();
  assert.equal(source.fetched.length, 3, 'the header probe puts 3 articles on the wire: no window, no link BDP');
  parts.push(Buffer.from(r.value as Uint8Array));
  r = await it.next();
  assert.equal(source.fetched.length, 4, 'article 0 handed over: the same 3 in flight, none more');
  parts.push(Buffer.from(r.value as Uint8Array));
  r = await it.next();
  assert.equal(source.fetched.length, 7, 'the consumer came back for article 2: the window is 5 articles past it');
  for (; !r.done; r = await it.next()) parts.push(Buffer.from(r.value));
  assert.ok(Buffer.concat(parts).equals(bytes), 'byte-exact');
  assert.equal(new Set(source.fetched).size, source.fetched.length, 'no article fetched twice');
});

test("an open-ended read after a seek puts the link's bandwidth-delay product in flight from the start", async () => {
  const source = new LinkedSource(articles);
  const reader = new VfsReader(t.vfs, source, () => ({ ...settings, workersPerStream: 16 }));
  const from = 3 * 7_000 + 100;
  const it = reader.read(PATH, from, bytes.length - from, new AbortController().signal)[Symbol.asyncIterator]();
  const r = await it.next();
  assert.equal(source.fetched.length, 3 + 4, '3 articles plus the 4 the link carries per round trip');
  assert.deepEqual(Buffer.from(r.value as Uint8Array), bytes.subarray(from, 4 * 7_000));
  await it.return?.(undefined);
});

test('the cache serves repeated reads; read-ahead follows sequential reads and stops on a seek', async () => {
  const source = new MapSource(articles);
  const reader = new VfsReader(t.vfs, source, () => settings);
  const stream = new ReadStream(reader, PATH, () => 3);
  const buf = Buffer.alloc(4096);
  const sig = new AbortController().signal;
  await stream.readInto(buf, 0, 4096, sig); // not sequential yet? offset 0 == initial position: counts as sequential
  await stream.readInto(buf, 4096, 4096, sig);
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(source.fetched, ['a0@test', 'a1@test', 'a2@test', 'a3@test']);
  await stream.readInto(buf, 70_000, 4096, sig); // seek: article 10 first (urgent), then a short read-ahead
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(source.fetched.slice(4), ['a10@test', 'a11@test', 'a12@test'], 'at most the window (3) at a seek');
  assert.deepEqual(source.urgent, ['a0@test', 'a10@test'], 'the first article of each read that fetched');
  assert.deepEqual(buf.subarray(0, 4096), bytes.subarray(70_000, 74_096));
  const before = source.fetched.length;
  await collect(reader.read(PATH, 0, 20_000, sig));
  assert.equal(source.fetched.length, before, 'served from the cache');
  stream.close();
});

test("a handle's first read at byte 0 reads ahead a few articles; the full window waits for a next read", async () => {
  const source = new MapSource(articles);
  const stream = new ReadStream(new VfsReader(t.vfs, source, () => settings), PATH, () => 12);
  const buf = Buffer.alloc(4096);
  const sig = new AbortController().signal;
  await stream.readInto(buf, 0, 4096, sig); // a player reading the container header
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(source.fetched, ['a0@test', 'a1@test', 'a2@test', 'a3@test'], 'the read and 3 more, not 12');
  await stream.readInto(buf, 4096, 4096, sig); // it goes on reading: now a stream
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(source.fetched.at(-1), 'a12@test', 'the full window of 12 past the read');
  stream.close();
});

test("a seek reads ahead a few articles plus the link's bandwidth-delay product", async () => {
  const source = new MapSource(articles);
  // a window of 12 is the base 10 plus 2 articles the link carries per round trip
  const stream = new ReadStream(new VfsReader(t.vfs, source, () => settings), PATH, () => 12);
  const buf = Buffer.alloc(4096);
  await stream.readInto(buf, 3 * 7_000 + 100, 4096, new AbortController().signal);
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(
    source.fetched,
    ['a3@test', 'a4@test', 'a5@test', 'a6@test', 'a7@test', 'a8@test'],
    'the read, then 4 + 2 ahead in the same pass',
  );
  assert.deepEqual(buf, bytes.subarray(21_100, 25_196));
  stream.close();
});

test('an outage is not evidence: nothing is recorded missing and zero-fill never stands in for real data', async () => {
  const z = { ...settings, zeroFill: { enabled: true, maxHoleBytes: 8_000, maxHolesPerFile: 5, maxFileShare: 1 } };
  for (const outage of [
    new ConnectionResetError('connect ECONNREFUSED 127.0.0.1:119'),
    new TimeoutError('No answer within 30000 ms'),
    new NoProviderError('Every provider that could serve this article is cooling down (back in 28 s)'),
    new AuthError('Authentication failed (481): check username and password'),
  ]) {
    const source = new MapSource(articles);
    source.failWith = outage;
    const events = new EventBus<SpoolEvents>();
    const reader = new VfsReader(t.vfs, source, () => z, events);
    const failures: string[] = [];
    events.on('read.article.failed', (f) => failures.push(f.messageId));
    await assert.rejects(collect(reader.read(PATH, 30_000, 10_000, new AbortController().signal)), VfsReadError);
    assert.deepEqual(failures, [], `${outage.name} is not a missing article`);
  }
});

test('a good read of an article known unavailable reports it recovered', async () => {
  t.verdicts.marks.set(PATH, new Set(['a2@test', 'a9@test'])); // the health domain's marks: the tree has no copy
  const events = new EventBus<SpoolEvents>();
  const reader = new VfsReader(t.vfs, new MapSource(articles), () => settings, events);
  const recovered: string[] = [];
  events.on('read.article.recovered', (r) => recovered.push(...r.messageIds));
  assert.deepEqual(
    await collect(reader.read(PATH, 14_000, 1_000, new AbortController().signal)),
    bytes.subarray(14_000, 15_000),
  );
  assert.deepEqual(recovered, ['a2@test'], 'only the marked article read (the health store clears the mark)');
  t.verdicts.marks.delete(PATH);
});

test('a file that starts and ends mid-article (inside an archive volume) reads byte-exact, stream and cache alike', async () => {
  const inner = sliceLayout(layout, 10_500, 40_001); // starts in article 1 at byte 3,500, ends inside article 7
  await t.vfs.addJob({ category: 'x', jobName: 'S', files: [{ name: 's.bin', size: 40_001, layout: inner }] });
  const path = '/complete/x/S/s.bin';
  const want = bytes.subarray(10_500, 50_501);
  const source = new MapSource(articles);
  const reader = new VfsReader(t.vfs, source, () => settings);
  assert.deepEqual(await collect(reader.read(path, 0, 40_001, new AbortController().signal)), want);
  assert.equal(source.fetched.length, 7, 'articles 1..7, each once');
  for (const [off, len] of [
    [0, 1],
    [3_499, 2],
    [40_000, 10],
    [17_000, 9_000],
  ] as const) {
    const got = await collect(reader.read(path, off, len, new AbortController().signal));
    assert.deepEqual(got, want.subarray(off, off + len), `range ${off}+${len}`);
  }
  const stream = new ReadStream(reader, path, () => 2);
  const buf = Buffer.alloc(5_000);
  assert.equal(await stream.readInto(buf, 100, 5_000, new AbortController().signal), 5_000);
  assert.deepEqual(buf, want.subarray(100, 5_100));
  const cached = Buffer.alloc(6_000);
  assert.equal(stream.readCached(cached, 20_000, 6_000), 6_000, 'every article is in the cache by now');
  assert.deepEqual(cached, want.subarray(20_000, 26_000));
  stream.close();
});

test('an article whose decoded size differs from the layout fails a mid-article read too', async () => {
  const shortened = new Map(articles);
  shortened.set('a2@test', articles.get('a2@test')!.subarray(0, 6_999));
  const reader = new VfsReader(t.vfs, new MapSource(shortened), () => settings);
  // bytes 4_000..4_010 of s.bin lie in article 2 (file bytes 14_500..)
  await assert.rejects(
    collect(reader.read('/complete/x/S/s.bin', 4_000, 10, new AbortController().signal)),
    /expected 7000/,
  );
});
