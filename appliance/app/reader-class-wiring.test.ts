import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { EventBus, type SpoolEvents } from '../events/index.js';
import type { ArticleSource } from '../vfs/article-fetcher.js';
import { ReadHandles } from '../vfs/read-handle.js';
import { VfsReader } from '../vfs/reader.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { wireStreamEvents } from './stream-events.js';
import { wireStreamRegistry } from './streams.js';

// As the app wires it: the Streams view's classifier decides the class each read handle's fetches carry to the pool.
const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(30_000);
const { layout, articles } = memoryArticles(bytes, 7_000);
const sig = new AbortController().signal;

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'R', files: [{ name: 'f.mkv', size: bytes.length, layout }] });
});

test("a FUSE reader named ffprobe fetches as a scanner, a player's fetches as a player", async () => {
  const clock = { now: () => Date.parse('2026-11-25T10:00:00Z') };
  const inner = new MapSource(articles);
  const readers: Array<string | undefined> = [];
  const source: ArticleSource = {
    fetch: (id, opts) => {
      readers.push(opts.reader);
      return inner.fetch(id, opts);
    },
  };
  const handles = new ReadHandles(new VfsReader(t.vfs, source, testReaderSettings), clock);
  const bus = new EventBus<SpoolEvents>();
  const stopEvents = wireStreamEvents(handles, bus);
  const { stop } = wireStreamRegistry(bus, handles, clock);
  try {
    const probe = handles.open('/complete/x/R/f.mkv', 'fuse', { pid: 501, userAgent: 'ffprobe' });
    await probe.readInto(Buffer.alloc(1000), 0, 1000, sig);
    probe.close();
    assert.deepEqual(readers, ['scanner']);
    readers.length = 0;
    const play = handles.open('/complete/x/R/f.mkv', 'fuse', { pid: 502, userAgent: 'mpv' });
    await play.readInto(Buffer.alloc(1000), 14_000, 1000, sig);
    play.close();
    assert.ok(readers.length > 0 && readers.every((r) => r === 'player'), readers.join(' '));
  } finally {
    stop();
    stopEvents();
  }
});
