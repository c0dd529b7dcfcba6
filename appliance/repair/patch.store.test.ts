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
