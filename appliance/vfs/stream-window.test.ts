/** The stream window: base window on a short link, plus the bandwidth-delay product, within its caps. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { LinkFacts } from '../nntp/pool.js';
import { VfsReader } from './reader.js';
import { BASE_STREAM_WINDOW, RAMP_START, UNPROVEN_BURST, rangeWorkers, streamWindow } from './stream-window.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';

const MB = 1024 * 1024;
const link = (rttMs: number, over: Partial<LinkFacts> = {}): LinkFacts => ({
  rttMs,
  deliveryRate: 100_000, // 100 MB/s while busy
  bodyBytes: 790_000,
  capacity: 20 * 3,
  ...over,
});

test('the window is the base on an unmeasured or short link and grows with the round trip', () => {
  assert.equal(streamWindow(32, 128 * MB, undefined), BASE_STREAM_WINDOW);
  assert.equal(streamWindow(32, 128 * MB, link(0.5)), BASE_STREAM_WINDOW + 1);
  assert.equal(streamWindow(32, 128 * MB, link(20)), BASE_STREAM_WINDOW + 3, '100 MB/s x 20 ms = 2 MB = 3 articles');
  assert.equal(streamWindow(32, 128 * MB, link(80)), BASE_STREAM_WINDOW + 11);
  const w = [0.1, 5, 20, 40, 80, 160].map((rtt) => streamWindow(50, 1024 * MB, link(rtt, { capacity: 500 })));
  for (let i = 1; i < w.length; i++) assert.ok(w[i]! >= w[i - 1]!, `grows with the round trip: ${w.join(',')}`);
});

test('the window never passes max_download_workers, the providers capacity or half the cache', () => {
  assert.equal(streamWindow(16, 128 * MB, link(80)), 16, 'streaming.max_download_workers is the cap');
  assert.equal(streamWindow(4, 128 * MB, link(80)), 4, 'a cap under the base window wins too');
  assert.equal(streamWindow(4, 128 * MB, undefined), 4);
  assert.equal(streamWindow(50, 128 * MB, link(200, { capacity: 14 })), 14, 'no more than can be in flight at once');
  assert.equal(streamWindow(50, 16 * MB, link(200)), BASE_STREAM_WINDOW, 'half of a 16 MB cache is 10 articles');
  assert.equal(streamWindow(50, 24 * MB, link(200)), 15, 'half of a 24 MB cache holds 15 articles');
});

const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(200_000);
const { layout, articles } = memoryArticles(bytes, 5_000); // 40 articles
const PATH = '/complete/x/W/f.bin';

test('a range read keeps the window in flight at once, its first article urgent', async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'W', files: [{ name: 'f.bin', size: bytes.length, layout }] });
  let measured: LinkFacts | undefined;
  class LinkedSource extends MapSource {
    inFlight = 0;
    most = 0;
    link = () => measured;
    override async fetch(id: string, opts: { signal: AbortSignal; urgent?: boolean }): Promise<Uint8Array> {
      this.most = Math.max(this.most, ++this.inFlight);
      try {
        return await super.fetch(id, opts);
      } finally {
        this.inFlight--;
      }
    }
  }
  const settings = { ...testReaderSettings(), workersPerStream: 32, cacheBytes: 64 * MB };
  const read = async (rttMs: number | undefined) => {
    measured = rttMs === undefined ? undefined : link(rttMs, { bodyBytes: 5_000, deliveryRate: 5_000 });
    const source = new LinkedSource(articles, 5);
    const reader = new VfsReader(t.vfs, source, () => settings);
    const parts: Buffer[] = [];
    for await (const c of reader.read(PATH, 12_345, 150_000, new AbortController().signal)) parts.push(Buffer.from(c));
    assert.ok(Buffer.concat(parts).equals(bytes.subarray(12_345, 162_345)), 'byte-exact');
    assert.deepEqual(source.urgent, ['a2@test'], 'only the first article of the read is urgent');
    return { most: source.most, window: reader.streamWindow() };
  };
  const short = await read(undefined);
  assert.equal(short.most, BASE_STREAM_WINDOW);
  const long = await read(20); // 5,000 bytes/ms x 20 ms = 20 articles of 5,000 bytes on top of the base
  assert.equal(long.window, 30);
  assert.equal(long.most, 30, 'the whole 31-article range but one asked for in the first round trip');
});

test('an unproven read keeps its first burst in flight and never widens, bounded range or not', () => {
  // the article its consumer takes next and one more, whatever the link: a probe and a player's start both get it
  assert.equal(UNPROVEN_BURST, 2);
  assert.equal(rangeWorkers(13, true, true, 0, true), UNPROVEN_BURST);
  assert.equal(rangeWorkers(13, true, false, 0, true), UNPROVEN_BURST);
  for (const consumed of [1, 2, 5, 40]) {
    assert.equal(rangeWorkers(13, true, true, consumed, true), UNPROVEN_BURST, `still 2 after ${consumed} taken`);
    assert.equal(rangeWorkers(13, false, false, consumed, true), UNPROVEN_BURST, 'a bounded range too');
  }
  assert.equal(rangeWorkers(1, true, false, 0, true), 1, 'never past the window');
  // proven: as before, the ramp widens by 2 per article taken and a bounded range asks for the window at once
  assert.equal(rangeWorkers(13, true, true, 3, false), RAMP_START + 2 * 2);
  assert.equal(rangeWorkers(13, false, false, 0, false), 13);
});
