import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { requireAddon } from './fuse.binding.js';

// The addon's read window without a mount: readWindow runs the same lookup and copy a FUSE thread runs.
const native = requireAddon();
const bytes = randomBytes(100_000);
const span = (from: number, to: number) => bytes.subarray(from, to);

test('a read is served only when every byte of it is published; a miss writes nothing', () => {
  const t = native.createTable();
  assert.equal(native.openWindow(t, 7, bytes.length), 0);
  assert.equal(native.openWindow(t, 7, bytes.length), -1, 'one window per handle');
  assert.equal(native.publish(t, 7, 0, span(0, 30_000)), 0);
  assert.equal(native.publish(t, 7, 60_000, span(60_000, 90_000)), 0);
  const out = Buffer.alloc(40_000, 0xee);
  assert.equal(native.readWindow(t, 7, 10_000, 20_000, out), 20_000);
  assert.deepEqual(out.subarray(0, 20_000), span(10_000, 30_000));
  out.fill(0xee);
  assert.equal(native.readWindow(t, 7, 20_000, 20_000, out), -1, 'runs past the published bytes');
  assert.deepEqual(out, Buffer.alloc(40_000, 0xee), 'a miss leaves the reply buffer alone');
  // The gap filled: a read across three spans, byte-exact.
  assert.equal(native.publish(t, 7, 30_000, span(30_000, 60_000)), 0);
  assert.equal(native.readWindow(t, 7, 25_000, 40_000, out), 40_000);
  assert.deepEqual(out, span(25_000, 65_000));
  assert.equal(native.readWindow(t, 8, 0, 10, out), -1, 'another handle has no window');
  assert.deepEqual(native.stats(t), [2, 60_000, 0]);
});

test('publish refuses overlaps and bytes past the end of the file; the end of the file reads short, then 0', () => {
  const t = native.createTable();
  native.openWindow(t, 1, bytes.length);
  assert.equal(native.publish(t, 1, 90_000, span(90_000, 100_000)), 0);
  assert.equal(native.publish(t, 1, 85_000, span(85_000, 95_000)), -2);
  assert.equal(native.publish(t, 1, 95_000, span(95_000, 100_000)), -2);
  assert.equal(native.publish(t, 1, 99_000, span(0, 2_000)), -3);
  assert.equal(native.publish(t, 2, 0, span(0, 10)), -1, 'no window');
  assert.throws(() => native.publish(t, 1, 0, [1, 2, 3] as unknown as Uint8Array), /Uint8Array/);
  const out = Buffer.alloc(20_000);
  assert.equal(native.readWindow(t, 1, 95_000, 20_000, out), 5_000);
  assert.deepEqual(out.subarray(0, 5_000), span(95_000, 100_000));
  assert.equal(native.readWindow(t, 1, 100_000, 4_096, out), 0);
});

test('retire: the bytes are gone from the window at once; close retires everything', () => {
  const t = native.createTable();
  native.openWindow(t, 3, bytes.length);
  native.publish(t, 3, 0, span(0, 50_000));
  native.publish(t, 3, 50_000, span(50_000, 100_000));
  const out = Buffer.alloc(10);
  assert.equal(native.retire(t, 3, 0), 0);
  assert.equal(native.retire(t, 3, 0), -1, 'retired once');
  assert.equal(native.retire(t, 3, 1), -1, 'only by the offset it was published at');
  assert.equal(native.readWindow(t, 3, 49_995, 10, out), -1);
  assert.equal(native.readWindow(t, 3, 50_000, 10, out), 10);
  assert.equal(native.closeWindow(t, 3), 0);
  assert.equal(native.readWindow(t, 3, 50_000, 10, out), -1);
  assert.equal(native.closeWindow(t, 3), -1);
  assert.equal(native.takeProgress(t, 3), -1, 'no window, no progress');
});

test('progress: the furthest byte served natively since the last take (after a seek: where the reader is now)', () => {
  const t = native.createTable();
  native.openWindow(t, 4, bytes.length);
  assert.equal(native.takeProgress(t, 4), 0);
  native.publish(t, 4, 0, span(0, 100_000));
  const out = Buffer.alloc(8_192);
  native.readWindow(t, 4, 16_384, 8_192, out);
  native.readWindow(t, 4, 8_192, 8_192, out); // out of order: behind the furthest
  assert.equal(native.takeProgress(t, 4), 24_576);
  assert.equal(native.takeProgress(t, 4), 0, 'nothing served since');
  native.readWindow(t, 4, 0, 4_096, out); // a seek back
  assert.equal(native.takeProgress(t, 4), 4_096);
});

test('a published buffer stays alive while published, even with no JS reference left', async () => {
  const t = native.createTable();
  native.openWindow(t, 5, 1_000_000);
  (() => native.publish(t, 5, 0, Buffer.from(bytes.subarray(0, 1_000))))(); // a copy only the window holds
  for (let i = 0; i < 5; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    Buffer.alloc(8 << 20).fill(1); // churn the heap
    await new Promise((r) => setImmediate(r));
  }
  const out = Buffer.alloc(1_000);
  assert.equal(native.readWindow(t, 5, 0, 1_000, out), 1_000);
  assert.deepEqual(out, span(0, 1_000));
});

test('takeServed counts the bytes served natively since the last take (a read handle counts them), misses not', () => {
  const t = native.createTable();
  native.openWindow(t, 3, bytes.length);
  native.publish(t, 3, 0, span(0, 50_000));
  const out = Buffer.alloc(20_000);
  assert.equal(native.readWindow(t, 3, 0, 20_000, out), 20_000);
  assert.equal(native.readWindow(t, 3, 10_000, 5_000, out), 5_000);
  assert.equal(native.readWindow(t, 3, 45_000, 10_000, out), -1);
  assert.equal(native.takeServed(t, 3), 25_000);
  assert.equal(native.takeServed(t, 3), 0, 'taken');
  assert.equal(native.takeServed(t, 4), -1, 'no window');
});
