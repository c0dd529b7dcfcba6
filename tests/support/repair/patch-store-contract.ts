/**
 * What every `PatchStore` (appliance/repair/repair.port.ts) must do, whatever holds the bytes: the assertions of
 * appliance/repair/patch.store.test.ts that do not look at the disk, run against the disk store and the PostgreSQL
 * one (tests/integration/postgres/repair-pg.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PatchStore } from '../../../appliance/repair/index.js';

export interface PatchStoreUnderTest {
  patches: PatchStore;
  /** The same store as a restarted node opens it. */
  reopen(): Promise<PatchStore>;
  /** Blobs held, committed or not (files under the patch dir; blob rows). */
  blobs(): Promise<number>;
  close(): Promise<void>;
}

export function patchStoreContract(label: string, make: () => Promise<PatchStoreUnderTest>): void {
  test(`${label}: committed patches are served and survive a restart`, async () => {
    const s = await make();
    try {
      await s.patches.add('L1', '/complete/movies/A/a.mkv', [
        { start: 100, data: Buffer.alloc(50, 1) },
        { start: 150, data: Buffer.alloc(50, 2) },
      ]);
      assert.ok(s.patches.has('L1'));
      assert.ok(s.patches.covers('L1', 120, 190), 'two adjacent ranges cover a span across them');
      assert.ok(!s.patches.covers('L1', 90, 120));
      assert.ok(!s.patches.covers('L2', 100, 120));
      assert.deepEqual([...(await s.patches.read('L1', 140, 160))], [...Buffer.alloc(10, 1), ...Buffer.alloc(10, 2)]);
      assert.equal(s.patches.usedBytes(), 100);
      const again = await s.reopen();
      assert.ok(again.covers('L1', 100, 200), 'the committed patch is back after the restart');
      assert.deepEqual([...(await again.read('L1', 195, 200))], [2, 2, 2, 2, 2]);
      assert.equal(again.list().length, 1);
      assert.equal(await s.blobs(), 1);
    } finally {
      await s.close();
    }
  });

  test(`${label}: patches follow moves and go with files removed from the tree, blobs and all`, async () => {
    const s = await make();
    try {
      await s.patches.add('M', '/complete/tv/Show/e1.mkv', [{ start: 0, data: Buffer.alloc(10, 3) }]);
      await s.patches.add('N', '/complete/tv/Other/e2.mkv', [{ start: 0, data: Buffer.alloc(10, 4) }]);
      await s.patches.movePath('/complete/tv/Show', '/complete/tv/Show S01');
      assert.equal(s.patches.list().find((p) => p.layoutId === 'M')?.path, '/complete/tv/Show S01/e1.mkv');
      assert.equal(await s.patches.removePaths(['/complete/tv/Show']), 0, 'the old path holds nothing after the move');
      assert.equal(await s.patches.removePaths(['/complete/tv/Show S01']), 1);
      assert.ok(!s.patches.has('M'));
      assert.ok(s.patches.has('N'));
      assert.equal(s.patches.usedBytes(), 10);
      assert.equal(await s.blobs(), 1);
    } finally {
      await s.close();
    }
  });

  test(`${label}: a patch written in pieces is served only after its commit; an aborted one leaves nothing`, async () => {
    const s = await make();
    try {
      const w = await s.patches.open('P', '/complete/movies/P/p.mkv', [
        { start: 0, end: 8 },
        { start: 100, end: 104 },
      ]);
      await w.write(4, Buffer.alloc(4, 2));
      await w.write(100, Buffer.alloc(4, 3));
      await w.write(0, Buffer.alloc(4, 1));
      await assert.rejects(w.write(6, Buffer.alloc(4)), /outside the patch's ranges/);
      assert.ok(!s.patches.has('P') && !s.patches.covers('P', 0, 8), 'nothing is served before the commit');
      assert.equal(s.patches.usedBytes(), 0);
      await w.commit();
      assert.ok(s.patches.covers('P', 0, 8) && s.patches.covers('P', 100, 104) && !s.patches.covers('P', 0, 9));
      assert.deepEqual([...(await s.patches.read('P', 2, 8))], [1, 1, 2, 2, 2, 2]);
      assert.deepEqual([...(await s.patches.read('P', 100, 104))], [3, 3, 3, 3]);
      assert.equal(s.patches.usedBytes(), 12);
      const dropped = await s.patches.open('Q', '/complete/movies/Q/q.mkv', [{ start: 0, end: 4 }]);
      await dropped.write(0, Buffer.alloc(4, 5));
      await dropped.abort();
      assert.ok(!s.patches.has('Q'));
      assert.equal(await s.blobs(), 1, "only P's blob");
    } finally {
      await s.close();
    }
  });

  test(`${label}: a patch with a range never written is refused at its commit`, async () => {
    const s = await make();
    try {
      const w = await s.patches.open('G', '/complete/movies/G/g.mkv', [
        { start: 0, end: 8 },
        { start: 100, end: 104 },
      ]);
      await w.write(0, Buffer.alloc(4, 1));
      await w.write(2, Buffer.alloc(4, 1));
      await w.write(100, Buffer.alloc(4, 3));
      await assert.rejects(w.commit(), /incomplete: bytes 6-7 were never written/);
      assert.ok(!s.patches.has('G') && !s.patches.covers('G', 0, 4));
      assert.equal(await s.blobs(), 0, 'the pending blob is gone');
    } finally {
      await s.close();
    }
  });
}
