import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientLabel, formatRate, formatStalls, formatTtfb } from './rules';

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
