import assert from 'node:assert/strict';
import { test } from 'node:test';
import { folderOf, isUnder, mapPath } from './path-mapping.js';

test('a path under a mapping takes its `to`; the longest `from` wins; whole components only', () => {
  const maps = [
    { from: '/mnt/spool', to: '/spool' },
    { from: '/mnt/spool/tv', to: '/tv' },
    { from: '/data/movies/', to: '/media/movies/' },
  ];
  assert.equal(mapPath('/mnt/spool/movies/Film/Film.mkv', maps), '/spool/movies/Film/Film.mkv');
  assert.equal(mapPath('/mnt/spool/tv/Show/S01', maps), '/tv/Show/S01');
  assert.equal(mapPath('/data/movies/Film (2020)/Film.mkv', maps), '/media/movies/Film (2020)/Film.mkv');
  assert.equal(mapPath('/mnt/spoolish/x', maps), '/mnt/spoolish/x', 'a longer name is not under the prefix');
  assert.equal(mapPath('/elsewhere/x', maps), '/elsewhere/x', 'no mapping: the same path on both sides');
  assert.equal(mapPath('/mnt/spool', maps), '/spool');
  assert.equal(mapPath('/a/b', [{ from: '/', to: '/host' }]), '/host/a/b');
  assert.equal(mapPath('/host/a', [{ from: '/host', to: '/' }]), '/a');
});

test('the folder of a file is its parent; a folder is itself', () => {
  assert.equal(folderOf('/spool/movies/Film/Film.mkv', false), '/spool/movies/Film');
  assert.equal(folderOf('/spool/movies/Film/', true), '/spool/movies/Film');
  assert.equal(folderOf('/Film.mkv', false), '/');
  assert.ok(isUnder('/a/b', '/a/'));
  assert.ok(!isUnder('/ab', '/a'));
});
