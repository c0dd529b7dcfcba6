import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { EventBus, type SpoolEvents } from '../events/index.js';
import { ReadHandles } from '../vfs/read-handle.js';
import { VfsReader } from '../vfs/reader.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { wireStreamEvents } from './stream-events.js';

// The read handles' life as bus events (the live Streams view's data), and nothing built while nobody listens.
const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(30_000);
const { layout, articles } = memoryArticles(bytes, 7_000);
const PATH = '/complete/x/J/f.bin';
const sig = new AbortController().signal;

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

test('a read through a handle is stream.opened, stream.progress and stream.closed on the bus', async () => {
  const clock = { t: 0, now: () => clock.t };
  const handles = new ReadHandles(new VfsReader(t.vfs, new MapSource(articles), testReaderSettings), clock);
  const bus = new EventBus<SpoolEvents>();
  const stop = wireStreamEvents(handles, bus);
  const seen: [string, unknown][] = [];
  bus.on('stream.opened', (e) => seen.push(['opened', e]));
  bus.on('stream.progress', (e) => seen.push(['progress', e]));
  bus.on('stream.closed', (e) => seen.push(['closed', e]));
  const h = handles.open(PATH, 'webdav', { address: '192.0.2.7', userAgent: 'Kodi/21' }, { offset: 5_000 });
  for await (const c of h.stream(5_000, 20_000, sig)) {
    void c;
    clock.t += 600; // a chunk every 0.6 s: progress at most once a second
  }
  h.close('done');
  const id = String(h.id);
  assert.deepEqual(seen, [
    [
      'opened',
      {
        stream_id: id,
        path: PATH,
        via: 'webdav',
        offset: 5_000,
        size: 30_000,
        client: { address: '192.0.2.7', user_agent: 'Kodi/21' },
      },
    ],
    ['progress', { stream_id: id, bytes_sent: 16_000, position: 21_000, ttfb_ms: 0, stalls: 0, stalled_ms: 0 }],
    [
      'closed',
      { stream_id: id, bytes_sent: 20_000, position: 25_000, reason: 'done', ttfb_ms: 0, stalls: 0, stalled_ms: 0 },
    ],
  ]);
  stop();
  handles.open(PATH, 'fuse', { pid: 1 }).close();
  assert.equal(seen.length, 3, 'unsubscribed: no more events');
});
