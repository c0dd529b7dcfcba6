import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openStore } from '../store/index.js';
import { DiskPatchStore } from './patch.store.js';

const root = mkdtempSync(join(tmpdir(), 'spool-patches-'));
after(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, 'patches');

test('committed patches are served and survive a restart; a torn write is never served and is swept', async () => {
  let store = openStore({ rootPath: root });
  let patches = new DiskPatchStore(store, dir);
  await patches.add('L1', '/complete/movies/A/a.mkv', [
    { start: 100, data: Buffer.alloc(50, 1) },
    { start: 150, data: Buffer.alloc(50, 2) },
  ]);
  assert.ok(patches.has('L1'));
  assert.ok(patches.covers('L1', 120, 190), 'two adjacent ranges cover a span across them');
  assert.ok(!patches.covers('L1', 90, 120));
  assert.ok(!patches.covers('L2', 100, 120));
  const bytes = Buffer.from(await patches.read('L1', 140, 160));
  assert.deepEqual([...bytes], [...Buffer.alloc(10, 1), ...Buffer.alloc(10, 2)]);
  assert.equal(patches.usedBytes(), 100);
  // What a kill -9 leaves mid-repair: a temp blob half written, and a renamed blob whose record was never committed.
  writeFileSync(join(dir, 'torn.bin.tmp'), Buffer.alloc(7, 9));
  writeFileSync(join(dir, 'uncommitted.bin'), Buffer.alloc(7, 9));
  await store.close();
  store = openStore({ rootPath: root });
  patches = new DiskPatchStore(store, dir);
  assert.ok(patches.covers('L1', 100, 200), 'the committed patch is back after the restart');
  assert.deepEqual([...Buffer.from(await patches.read('L1', 195, 200))], [2, 2, 2, 2, 2]);
  assert.equal(readdirSync(dir).length, 1, `only the committed blob is left: ${readdirSync(dir).join(', ')}`);
  assert.equal(patches.list().length, 1);
  await store.close();
});

test('patches follow moves and go with files removed from the tree, blobs and all', async () => {
  const store = openStore({ rootPath: join(root, 'b') });
  const patches = new DiskPatchStore(store, join(root, 'b-patches'));
  await patches.add('M', '/complete/tv/Show/e1.mkv', [{ start: 0, data: Buffer.alloc(10, 3) }]);
  await patches.add('N', '/complete/tv/Other/e2.mkv', [{ start: 0, data: Buffer.alloc(10, 4) }]);
  await patches.movePath('/complete/tv/Show', '/complete/tv/Show S01');
  assert.equal(await patches.removePaths(['/complete/tv/Show']), 0, 'the old path holds nothing after the move');
  assert.equal(await patches.removePaths(['/complete/tv/Show S01']), 1);
  assert.ok(!patches.has('M'));
  assert.ok(patches.has('N'));
  assert.equal(patches.usedBytes(), 10);
  assert.equal(readdirSync(join(root, 'b-patches')).length, 1);
  await store.close();
});

test('a patch written in pieces, out of order, is served only after its one commit; an aborted one leaves nothing', async () => {
  const store = openStore({ rootPath: join(root, 'c') });
  const cdir = join(root, 'c-patches');
  const patches = new DiskPatchStore(store, cdir);
  const w = await patches.open('P', '/complete/movies/P/p.mkv', [
    { start: 0, end: 8 },
    { start: 100, end: 104 },
  ]);
  await w.write(4, Buffer.alloc(4, 2)); // strips of two slices, interleaved as the streaming solve hands them
  await w.write(100, Buffer.alloc(4, 3));
  await w.write(0, Buffer.alloc(4, 1));
  await assert.rejects(w.write(6, Buffer.alloc(4)), /outside the patch's ranges/);
  assert.ok(!patches.has('P') && !patches.covers('P', 0, 8), 'nothing is served before the commit');
  assert.equal(patches.usedBytes(), 0);
  await w.commit();
  assert.ok(patches.covers('P', 0, 8) && patches.covers('P', 100, 104) && !patches.covers('P', 0, 9));
  assert.deepEqual([...Buffer.from(await patches.read('P', 2, 8))], [1, 1, 2, 2, 2, 2]);
  assert.deepEqual([...Buffer.from(await patches.read('P', 100, 104))], [3, 3, 3, 3]);
  assert.equal(patches.usedBytes(), 12);
  const dropped = await patches.open('Q', '/complete/movies/Q/q.mkv', [{ start: 0, end: 4 }]);
  await dropped.write(0, Buffer.alloc(4, 5));
  await dropped.abort();
  assert.ok(!patches.has('Q'));
  assert.equal(readdirSync(cdir).length, 1, `only P's blob: ${readdirSync(cdir).join(', ')}`);
  await store.close();
});

test('a patch with a range never written is refused at its commit: its holes would read as zeros', async () => {
  const store = openStore({ rootPath: join(root, 'g') });
  const gdir = join(root, 'g-patches');
  const patches = new DiskPatchStore(store, gdir);
  const w = await patches.open('G', '/complete/movies/G/g.mkv', [
    { start: 0, end: 8 },
    { start: 100, end: 104 },
  ]);
  await w.write(0, Buffer.alloc(4, 1));
  await w.write(2, Buffer.alloc(4, 1)); // overlapping pieces count once
  await w.write(100, Buffer.alloc(4, 3)); // bytes 6-7 are never written
  await assert.rejects(w.commit(), /incomplete: bytes 6-7 were never written/);
  assert.ok(!patches.has('G') && !patches.covers('G', 0, 4));
  assert.deepEqual(readdirSync(gdir), [], 'the temp file is gone');
  await store.close();
});
