import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TreeStore } from '../../../appliance/vfs/tree.port.js';
import type { VfsNode } from '../../../appliance/vfs/types.js';
import type { VfsService } from '../../../appliance/vfs/vfs.service.js';
import { realisticLayout } from '../nzb/realistic-layouts.js';
import { memoryArticles } from './memory.js';

/** A tree store to run the port's cases on, with a VfsService over it (sidecars wherever the store keeps them). */
export interface TreeUnderTest {
  tree: TreeStore;
  vfs: VfsService;
  close(): Promise<void>;
}

/**
 * The TreeStore port's behaviour, the same on every store (appliance/vfs/tree.store.test.ts runs it on LMDB,
 * tests/integration/postgres/tree-pg.test.ts on PostgreSQL with its replica).
 */
export function treePortCases(store: string, open: () => Promise<TreeUnderTest>): void {
  const { layout } = memoryArticles(Buffer.alloc(100, 1), 100);

  test(`${store}: folders of every name length list exactly their own children`, async () => {
    const t = await open();
    try {
      const names: string[] = [];
      for (let len = 1; len <= 130; len += 7) names.push('R'.repeat(len));
      names.push('Big.Buck.Bunny.2008.1080p.mkv', 'Big.Buck.Bunny.2008.1080p.mkv.extras', 'Ünïcødé 😀 release');
      for (const jobName of names)
        await t.vfs.addJob({ category: 'default', jobName, files: [{ name: `${jobName}.mkv`, size: 100, layout }] });
      assert.deepEqual(
        t.vfs
          .list('/complete/default')
          .map((n) => n.name)
          .sort(),
        [...names].sort(),
      );
      for (const jobName of names)
        assert.deepEqual(
          t.vfs.list(`/complete/default/${jobName}`).map((n) => n.name),
          [`${jobName}.mkv`],
        );
    } finally {
      await t.close();
    }
  });

  test(`${store}: layouts stored alone read back equal, are replaced and deleted by writes, dropped`, async () => {
    const t = await open();
    try {
      const big = realisticLayout({ articles: 2_000, style: 'random-hex' });
      await t.tree.storeLayout('big', big);
      assert.deepEqual(t.tree.layout('big'), big);
      const other = realisticLayout({ articles: 20, style: 'sequential' });
      await t.tree.write(() => t.tree.putLayout('big', other));
      assert.deepEqual(t.tree.layout('big'), other);
      await t.tree.write(() => t.tree.deleteLayout('big'));
      assert.equal(t.tree.layout('big'), undefined);
      await t.tree.storeLayout('a', other);
      await t.tree.dropLayouts(['a']);
      assert.equal(t.tree.layout('a'), undefined);
    } finally {
      await t.close();
    }
  });

  test(`${store}: a write is all or nothing, reads its own writes, and counts`, async () => {
    const t = await open();
    try {
      const dir = (path: string): VfsNode => ({
        path,
        name: path.slice(1),
        type: 'directory',
        size: 0,
        createdAt: 1,
        modifiedAt: 1,
        etag: '"d"',
      });
      const before = t.tree.writes();
      const inside = await t.tree.write(() => {
        t.tree.put(dir('/x'));
        return t.tree.children('/').map((n) => n.path);
      });
      assert.deepEqual(inside, ['/x']);
      assert.ok(t.tree.writes() > before, 'the count moved');
      await assert.rejects(
        t.tree.write(() => {
          t.tree.put(dir('/y'));
          t.tree.delete('/x');
          throw new Error('no');
        }),
        /no/,
      );
      assert.deepEqual(
        t.tree.subtree('/').map((n) => n.path),
        ['/x'],
      );
    } finally {
      await t.close();
    }
  });
}
