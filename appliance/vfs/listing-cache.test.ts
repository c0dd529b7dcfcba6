import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { memoryArticles, tempVfs } from '../../tests/support/vfs/memory.js';
import { ListingCache } from './listing-cache.js';
import type { VfsNode } from './types.js';

const t = tempVfs();
after(() => t.close());
const { layout } = memoryArticles(Buffer.alloc(100, 1), 100);
const file = (name: string) => ({ name, size: 100, layout });
const names = (dir: string) => t.vfs.list(dir).map((n) => n.name);

test('a listing read again after a write to its folder shows the write, even one read while it committed', async () => {
  await t.vfs.addJob({ category: 'tv', jobName: 'A', files: [file('a.mkv')] });
  assert.deepEqual(names('/complete/tv'), ['A']); // now cached
  const adding = t.vfs.addJob({ category: 'tv', jobName: 'B', files: [file('b.mkv')] });
  assert.deepEqual(names('/complete/tv'), ['A'], 'not committed yet');
  await adding;
  assert.deepEqual(names('/complete/tv'), ['A', 'B']);
  await t.vfs.transfer('/complete/tv/B/b.mkv', '/complete/tv/A/b.mkv', { mode: 'move', overwrite: false });
  assert.deepEqual([names('/complete/tv/A'), names('/complete/tv/B')], [['a.mkv', 'b.mkv'], []]);
  await t.vfs.patchDeadProps('/complete/tv/A/a.mkv', [['{x:}k', 'v']]);
  assert.deepEqual(t.vfs.list('/complete/tv/A')[0]!.deadProps, { '{x:}k': 'v' });
  await t.vfs.remove('/complete/tv/A');
  assert.deepEqual(names('/complete/tv'), ['B']);
});

test('a failed write leaves no listing of what it would have written', async () => {
  await t.vfs.addJob({ category: 'movies', jobName: 'M', files: [file('m.mkv')] });
  assert.deepEqual(names('/complete/movies'), ['M']);
  await assert.rejects(t.vfs.addJob({ category: 'movies', jobName: 'M', files: [file('other.mkv')] }));
  assert.deepEqual(names('/complete/movies/M'), ['m.mkv']);
});

test('listed nodes are frozen, and the cache holds no more nodes than its bound, least recently used out first', () => {
  const node = (path: string) => ({ path, name: path, type: 'file', size: 1 }) as VfsNode;
  const cache = new ListingCache(3);
  cache.set('/a', [node('/a/1'), node('/a/2')]);
  cache.set('/b', [node('/b/1')]);
  assert.throws(() => ((cache.get('/a')![0] as { size: number }).size = 2), TypeError);
  cache.set('/c', [node('/c/1')]); // 4 nodes: /b (least recently used: /a was read after it) goes
  assert.deepEqual([!!cache.get('/a'), !!cache.get('/b'), !!cache.get('/c')], [true, false, true]);
  cache.set('/d', [node('/d/1'), node('/d/2'), node('/d/3'), node('/d/4')]); // larger than the bound: not kept
  assert.equal(cache.get('/d'), undefined);
});
