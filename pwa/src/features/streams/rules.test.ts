import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  clientLabel,
  endsHere,
  formatBuffered,
  formatServing,
  formatRate,
  formatRateVsBitrate,
  formatStalls,
  formatTtfb,
  servedByNodes,
} from './rules';

test('the client is its address and user agent, or the FUSE reading process', () => {
  assert.equal(clientLabel({ client: { address: '10.0.0.2', user_agent: 'VLC/3.0' } }), '10.0.0.2 · VLC/3.0');
  assert.equal(clientLabel({ client: { pid: 4242 } }), 'pid 4242');
  assert.equal(clientLabel({ client: {} }), 'unknown');
});

test('rate, time to first byte and stalls read as the Streams table shows them', () => {
  assert.equal(formatRate(0), '–');
  assert.match(formatRate(2 * 1024 * 1024), /2(\.0+)? MB\/s/);
  assert.equal(formatTtfb(null), '–');
  assert.equal(formatTtfb(250), '250 ms');
  assert.equal(formatTtfb(1500), '1.5 s');
  assert.equal(formatStalls({ stalls: 0, stalled_ms: 0 }), '0');
  assert.equal(formatStalls({ stalls: 2, stalled_ms: 3400 }), '2 (3.4 s)');
});

test('the rate against the media bitrate, and the bytes buffered ahead', () => {
  const MIB = 1024 * 1024;
  assert.match(
    formatRateVsBitrate({ rate_bps: 2 * MIB, media_bitrate_bps: MIB }),
    /^2(\.0+)? MB\/s of 1(\.0+)? MB\/s$/,
  );
  assert.match(formatRateVsBitrate({ rate_bps: 2 * MIB, media_bitrate_bps: null }), /^2(\.0+)? MB\/s$/);
  assert.match(formatRateVsBitrate({ rate_bps: 0, media_bitrate_bps: MIB }), /^– of 1(\.0+)? MB\/s$/);
  assert.equal(formatBuffered(null), '–');
  assert.equal(formatBuffered(0), '–');
  assert.match(formatBuffered(3 * MIB), /^3(\.0+)? MB$/);
});

test('connections and providers read as one cell', () => {
  assert.equal(
    formatServing({ connections: 2, providers: ['news.a.example', 'news.b.example'] }),
    '2 · news.a.example, news.b.example',
  );
  assert.equal(formatServing({ connections: 0, providers: ['news.a.example'] }), '0 · news.a.example');
  assert.equal(formatServing({ connections: null, providers: [] }), '–');
});

test("a Node column once more than one node serves the streams; End only on this node's", () => {
  assert.equal(servedByNodes(undefined), false);
  assert.equal(servedByNodes([{}, {}]), false, 'one node (LMDB): no node field at all');
  assert.equal(servedByNodes([{ node: 'a' }, { node: 'a' }]), false);
  assert.equal(servedByNodes([{ node: 'a' }, { node: 'b' }]), true);
  assert.equal(endsHere({ id: '12' }), true);
  assert.equal(endsHere({ id: 'node-b:12' }), false);
});
