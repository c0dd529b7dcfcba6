import assert from 'node:assert/strict';
import { test } from 'node:test';
import { threadId } from 'node:worker_threads';
import { mulAddMany } from '../appliance/par2/gf16-native.js';
import { createPar2StripPool, mulAddIn } from './par2-strip.client.js';

function region(seed: number, n: number): Uint8Array {
  const b = new Uint8Array(new ArrayBuffer(n));
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
}

test('the strip multiply-add runs in a worker, moves its buffers both ways and matches the main-thread result', async () => {
  const pool = createPar2StripPool();
  try {
    const dsts = [region(1, 4096), region(2, 4096)];
    const srcs = [region(3, 4096), region(4, 4096), region(5, 4096)];
    const factors = Uint16Array.from([3, 700, 65535, 1, 2, 40000]);
    const want = dsts.map((d) => d.slice());
    mulAddMany(
      want,
      srcs.map((s) => s.slice()),
      factors,
    );
    const run = mulAddIn(pool);
    const out = await run(dsts, srcs, factors);
    assert.equal(dsts[0]!.byteLength, 0, 'the caller’s buffers were transferred, not copied');
    assert.equal(srcs[2]!.byteLength, 0);
    assert.deepEqual(out.dsts, want);
    assert.deepEqual(out.srcs[1], region(4, 4096));
    assert.notEqual(run.lastThreadId, threadId);
  } finally {
    await pool.destroy();
  }
});
