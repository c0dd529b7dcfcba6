import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { migrate, openStore } from '../store/index.js';
import { memoryArticles, tempVfs } from '../../tests/support/vfs/memory.js';
import { isPackedLayout } from '../layout/index.js';
import { realisticLayout } from '../../tests/support/nzb/realistic-layouts.js';
import { VFS_MIGRATIONS } from './tree.migrations.js';
import { LmdbTreeStore } from './tree.store.js';
import { treePortCases } from '../../tests/support/vfs/tree-port-cases.js';
import { VfsService } from './vfs.service.js';
import type { VfsNode } from './types.js';
import { openTreeNodes } from './tree-nodes.store.js';

const t = tempVfs();
after(() => t.close());
const { layout } = memoryArticles(Buffer.alloc(100, 1), 100);

test('folders of every name length list exactly their own children (real release names are long)', async () => {
  const names: string[] = [];
  for (let len = 1; len <= 130; len += 3) names.push('R'.repeat(len));
  // Names that share a prefix with another folder, or differ only past it, must not leak into each other.
  names.push(
    'Big.Buck.Bunny.2008.1080p.mkv',
    'Big.Buck.Bunny.2008.1080p.mkv.extras',
    'Big.Buck.Bunny 2008',
    'Ünïcødé 😀 release',
  );
  for (const jobName of names) {
    await t.vfs.addJob({ category: 'default', jobName, files: [{ name: `${jobName}.mkv`, size: 100, layout }] });
  }
  assert.deepEqual(
    t.vfs
      .list('/complete/default')
      .map((n) => n.name)
      .sort(),
    [...names].sort(),
  );
  for (const jobName of names) {
    assert.deepEqual(
      t.vfs.list(`/complete/default/${jobName}`).map((n) => n.name),
      [`${jobName}.mkv`],
      `listing of a ${jobName.length}-character folder`,
    );
  }
});

test('migration 1 moves trees written with "parent NUL name" string keys to array keys', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-mig-'));
  const store = openStore({ rootPath: dir });
  try {
    const nodes = openTreeNodes(store);
    const node = (path: string, type: 'directory' | 'file'): VfsNode =>
      ({
        path,
        name: path.slice(path.lastIndexOf('/') + 1),
        type,
        size: 0,
        createdAt: 1,
        modifiedAt: 1,
        etag: '"x"',
      }) as VfsNode;
    const release = '/complete/default/Some.Release.Name.2024.2160p.WEB-DL';
    for (const n of [
      node('/complete', 'directory'),
      node('/complete/default', 'directory'),
      node(release, 'directory'),
      node(`${release}/movie.mkv`, 'file'),
    ]) {
      const parent = n.path.slice(0, n.path.lastIndexOf('/')) || '/';
      await nodes.put(parent + '\u0000' + n.name, n);
    }
    assert.equal(migrate(store, 'vfs', VFS_MIGRATIONS).applied.length, VFS_MIGRATIONS.length);
    const tree = new LmdbTreeStore({ nodes, layouts: store.openDb('vfs-layouts') });
    assert.deepEqual(
      tree.children(release).map((n) => n.name),
      ['movie.mkv'],
    );
    assert.deepEqual(
      tree.children('/complete').map((n) => n.name),
      ['default'],
    );
    assert.equal([...nodes.getKeys({})].filter((k) => typeof k === 'string').length, 0);
    assert.equal(migrate(store, 'vfs', VFS_MIGRATIONS).applied.length, 0, 'applied once only');
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('migration 2 turns stored layouts of the old shape into the one layout model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-mig2-'));
  const store = openStore({ rootPath: dir });
  try {
    const layouts = store.openDb('vfs-layouts');
    await layouts.put('old', {
      segments: [
        { messageId: 'a@x', start: 0, end: 10 },
        { messageId: 'b@x', start: 10, end: 15 },
      ],
      groups: ['alt.test'],
      nzb: { poster: 'p', date: 5, subject: 's', numbers: [1, 2], encodedBytes: [12, 7] },
    });
    await layouts.put('bare', { segments: [{ messageId: 'c@x', start: 0, end: 3 }] });
    migrate(store, 'vfs', VFS_MIGRATIONS);
    const tree = new LmdbTreeStore({ nodes: openTreeNodes(store), layouts });
    assert.deepEqual(tree.layout('old'), {
      size: 15,
      segments: [
        { messageId: 'a@x', start: 0, end: 10, number: 1, bytes: 12, post: 0 },
        { messageId: 'b@x', start: 10, end: 15, number: 2, bytes: 7, post: 0 },
      ],
      groups: ['alt.test'],
      posts: [{ poster: 'p', date: 5, subject: 's', groups: ['alt.test'] }],
    });
    assert.deepEqual(tree.layout('bare'), { size: 3, segments: [{ messageId: 'c@x', start: 0, end: 3 }] });
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('layouts are stored packed, read back equal, and stay decoded while read until written again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-packed-'));
  const store = openStore({ rootPath: dir });
  try {
    const layouts = store.openDb('vfs-layouts');
    const tree = new LmdbTreeStore({ nodes: openTreeNodes(store), layouts });
    const big = realisticLayout({ articles: 10_000, style: 'random-hex' });
    await tree.storeLayout('big', big);
    const raw = layouts.get('big') as Uint8Array;
    assert.ok(isPackedLayout(raw), 'stored packed');
    assert.ok(raw.length < 10_000 * 25, `${raw.length} bytes for 10,000 articles`);
    const read = tree.layout('big')!;
    assert.deepEqual(read, big);
    assert.equal(tree.layout('big'), read, 'a second open is served from memory');
    const other = realisticLayout({ articles: 20, style: 'sequential' });
    await tree.write(() => tree.putLayout('big', other));
    assert.deepEqual(tree.layout('big'), other, 'a write replaces what was kept');
    await tree.write(() => tree.deleteLayout('big'));
    assert.equal(tree.layout('big'), undefined);
    await layouts.put('damaged', Buffer.concat([raw.subarray(0, 5), Buffer.from([1, 2, 3])]));
    assert.throws(() => tree.layout('damaged'), /damaged packed layout: .*\(layout damaged\)/);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

treePortCases('LMDB', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-port-'));
  const store = openStore({ rootPath: dir });
  const tree = new LmdbTreeStore({
    nodes: openTreeNodes(store),
    layouts: store.openDb('vfs-layouts'),
    meta: store.openDb('vfs-meta'),
  });
  return {
    tree,
    vfs: new VfsService({ tree, sidecarDir: join(dir, 'sidecars') }),
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
