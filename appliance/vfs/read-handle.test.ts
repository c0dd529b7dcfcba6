import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ReadHandles, type StreamSnapshot } from './read-handle.js';
import { VfsReader } from './reader.js';
import { RAMP_START, UNPROVEN_BURST } from './stream-window.js';
import type { ArticleSource } from './article-fetcher.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { waitUntil } from '../../tests/support/wait.js';

// The one read handle of WebDAV and FUSE: what it serves, and the opened / progress / closed a live view sees.
const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(50_000);
const { layout, articles } = memoryArticles(bytes, 7_000);
const PATH = '/complete/x/J/f.bin';
const sig = new AbortController().signal;

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

/** A clock moved by hand, and a source that holds one article back until told. */
function setup(heldId?: string) {
  const clock = { t: 1_000_000, now: () => clock.t };
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const inner = new MapSource(articles);
  const source: ArticleSource = {
    fetch: async (id, opts) => {
      if (id === heldId) await gate;
      return inner.fetch(id, opts);
    },
  };
  const handles = new ReadHandles(new VfsReader(t.vfs, source, testReaderSettings), clock);
  const events: { kind: string; s: StreamSnapshot }[] = [];
  handles.observe({
    opened: (s) => events.push({ kind: 'opened', s }),
    progress: (s) => events.push({ kind: 'progress', s }),
    closed: (s) => events.push({ kind: 'closed', s }),
  });
  return { clock, handles, events, release };
}

test('a WebDAV stream: opened, progress at most once a second with the bytes so far, closed with every byte', async () => {
  const { clock, handles, events, release } = setup('a3@test');
  const h = handles.open(PATH, 'webdav', { address: '10.0.0.9', userAgent: 'VLC/3.0' });
  assert.deepEqual(
    handles.snapshots().map((s) => s.id),
    [h.id],
  );
  const it = h.stream(0, bytes.length, sig)[Symbol.asyncIterator]();
  clock.t += 40;
  const got: Buffer[] = [];
  const take = async () => {
    const r = await it.next();
    assert.ok(!r.done);
    got.push(Buffer.from(r.value));
  };
  await take(); // article 0: first byte after 40 ms
  clock.t += 400;
  await take(); // article 1: within the second, no progress yet
  assert.deepEqual(
    events.map((e) => e.kind),
    ['opened'],
  );
  clock.t += 700;
  await take(); // article 2, 1.1 s after open: one progress
  const waiting = take(); // article 3 is held back: the reader waits 1.5 s for it, a stall
  clock.t += 1_500;
  release();
  await waiting;
  for (let r = await it.next(); !r.done; r = await it.next()) got.push(Buffer.from(r.value));
  h.close('done');
  h.close('error'); // twice is once
  assert.deepEqual(Buffer.concat(got), bytes);
  assert.deepEqual(
    events.map((e) => e.kind),
    ['opened', 'progress', 'progress', 'closed'],
  );
  const [opened, p1, p2, closed] = events.map((e) => e.s) as StreamSnapshot[];
  assert.deepEqual(
    { ...opened, client: { ...opened!.client } },
    {
      id: h.id,
      path: PATH,
      size: bytes.length,
      front: 'webdav',
      client: { address: '10.0.0.9', userAgent: 'VLC/3.0' },
      openedAt: 1_000_000,
      bytesServed: 0,
      offset: 0,
      ttfbMs: null,
      stalls: 0,
      stalledMs: 0,
      reason: null,
    },
  );
  assert.equal(p1!.bytesServed, 21_000);
  assert.equal(p1!.ttfbMs, 40);
  assert.deepEqual([p2!.bytesServed, p2!.stalls, p2!.stalledMs], [28_000, 1, 1_500]);
  assert.deepEqual(
    [closed!.bytesServed, closed!.offset, closed!.stalls, closed!.reason],
    [bytes.length, bytes.length, 1, 'done'],
  );
  assert.deepEqual(handles.snapshots(), [], 'a closed handle is no longer listed');
});

test('a FUSE handle counts reads from the network, from memory and from the native window', async () => {
  const { clock, handles, events } = setup();
  const h = handles.open(PATH, 'fuse', { pid: 4242 }, { readAhead: () => 3 });
  const buf = Buffer.alloc(8_000);
  assert.equal(await h.readInto(buf, 0, 4_096, sig), 4_096);
  assert.deepEqual(buf.subarray(0, 4_096), bytes.subarray(0, 4_096));
  await waitUntil('the read-ahead in the cache', () => h.readCached(buf, 4_096, 8_000) !== null, { everyMs: 5 });
  assert.deepEqual(buf, bytes.subarray(4_096, 12_096));
  clock.t += 1_000;
  h.servedUpTo(30_000); // the native window answered reads from byte 12,096 up to byte 30,000
  h.close('done', 22_904); // it served 5,000 more bytes (re-reads) than the position moved: the exact count wins
  assert.deepEqual(
    events.map((e) => [e.kind, e.s.bytesServed, e.s.offset]),
    [
      ['opened', 0, 0],
      ['progress', 30_000, 30_000],
      ['closed', 35_000, 30_000],
    ],
  );
  assert.deepEqual(events[0]!.s.client, { pid: 4242 });
  assert.equal(events[0]!.s.front, 'fuse');
});

test('nobody listening: no event is built, the handle still reads', async () => {
  const handles = new ReadHandles(new VfsReader(t.vfs, new MapSource(articles), testReaderSettings), { now: () => 0 });
  assert.equal(handles.observed, false);
  const h = handles.open(PATH, 'webdav', {});
  const parts: Buffer[] = [];
  for await (const c of h.stream(10, 100, sig)) parts.push(Buffer.from(c));
  assert.deepEqual(Buffer.concat(parts), bytes.subarray(10, 110));
  assert.equal(h.snapshot().bytesServed, 100);
  h.close();
  const seen: string[] = [];
  const stop = handles.observe({
    opened: () => seen.push('opened'),
    progress: () => seen.push('progress'),
    closed: () => seen.push('closed'),
  });
  stop();
  handles.open(PATH, 'fuse', {}).close();
  assert.deepEqual(seen, [], 'an observer that stopped hears nothing');
});

test('a listing sees the wait in progress, the bytes cached ahead of the reader, and none of either once served', async () => {
  const { clock, handles, release } = setup('a2@test');
  const h = handles.open(PATH, 'webdav', { address: '10.0.0.9' });
  const it = h.stream(0, bytes.length, sig)[Symbol.asyncIterator]();
  await it.next(); // article 0
  await it.next(); // article 1; a2 is held back, a3.. arrive as the window fetches them
  const waiting = it.next(); // waits for a2
  await new Promise((r) => setImmediate(r));
  clock.t += 1500;
  const [during] = handles.snapshots();
  assert.equal(during?.waitingMs, 1500);
  assert.equal(during?.offset, 14_000);
  // a2 is not cached yet: nothing is buffered ahead of the reader however much lies after it
  assert.equal(during?.bufferedBytes, 0);
  release();
  await waiting;
  const [after] = handles.snapshots();
  assert.equal(after?.waitingMs, undefined);
  // the reader is at 21000; the articles after it that the window fetched are cached
  assert.ok((after?.bufferedBytes ?? 0) > 0, `buffered ${after?.bufferedBytes}`);
  assert.ok(after!.offset + after!.bufferedBytes! <= bytes.length);
  h.close('aborted');
  await it.return?.(undefined);
});

test('the drain decides, not the client: of two GETs from one address and agent, the held one keeps its first burst ahead of what its socket took, the one that reads widens', async () => {
  const film = randomBytes(60_000);
  const { layout: filmLayout, articles: filmArticles } = memoryArticles(film, 1_000, 'd'); // 60 articles
  await t.vfs.addJob({
    category: 'x',
    jobName: 'D',
    files: [{ name: 'd.bin', size: film.length, layout: filmLayout }],
  });
  const source = new MapSource(filmArticles);
  const reader = new VfsReader(t.vfs, source, () => ({ ...testReaderSettings(), workersPerStream: 16 }));
  const handles = new ReadHandles(reader, { now: () => 0 });
  const client = { address: '10.0.0.9', userAgent: 'rclone/v1.68.2' }; // a media server: one for every reader
  const fetchedIn = (from: number, to: number) =>
    source.fetched.filter((id) => Number(/d(\d+)@/.exec(id)![1]) >= from && Number(/d(\d+)@/.exec(id)![1]) < to);
  /** Takes `n` chunks of a GET as its socket would (each taken, the next asked for), then holds it. */
  const take = async (it: AsyncIterator<Uint8Array>, n: number) => {
    for (let i = 0; i < n; i++) assert.ok(!(await it.next()).done);
  };

  // a probe's GET from byte 0 whose socket stopped taking after 12 articles (its connection full): never proven
  const held = handles.open('/complete/x/D/d.bin', 'webdav', client, { offset: 0 });
  const heldIt = held.stream(0, film.length, sig, { proven: () => false })[Symbol.asyncIterator]();
  await take(heldIt, 12);
  assert.ok(fetchedIn(0, 30).length <= 12 + UNPROVEN_BURST, `held: ${fetchedIn(0, 30).length} fetched for 12 taken`);

  // a player's GET of the same file from the same client whose socket kept taking: proven after 4 taken, it widens
  let taken = 0;
  const reading = handles.open('/complete/x/D/d.bin', 'webdav', client, { offset: 30_000 });
  const readIt = reading.stream(30_000, 30_000, sig, { proven: () => taken >= 4 })[Symbol.asyncIterator]();
  for (; taken < 12; taken++) assert.ok(!(await readIt.next()).done);
  assert.ok(fetchedIn(30, 60).length > 12 + RAMP_START, `proven: ${fetchedIn(30, 60).length} fetched for 12 taken`);

  // the held one still costs nothing more while the other reads on
  const before = fetchedIn(0, 30).length;
  for (let r = await readIt.next(); !r.done; r = await readIt.next());
  assert.equal(fetchedIn(0, 30).length, before);
  await heldIt.return?.(undefined);
  held.close('aborted');
  reading.close('done');
});
