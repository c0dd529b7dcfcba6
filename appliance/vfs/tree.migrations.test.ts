import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLayout, isPackedLayout, type FileLayout } from '../layout/index.js';
import { migrate, openStore, schemaVersion, type Store } from '../store/index.js';
import { realisticLayout } from '../../tests/support/nzb/realistic-layouts.js';
import { MapSource, memoryArticles, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { VfsReader } from './reader.js';
import { VFS_MIGRATIONS } from './tree.migrations.js';
import { LmdbTreeStore } from './tree.store.js';
import { VfsService } from './vfs.service.js';
import type { VfsNode } from './types.js';
import { writeLegacyNodes } from '../../tests/support/vfs/legacy-nodes.js';
import { openTreeNodes } from './tree-nodes.store.js';

const PATH = '/complete/default/Release/file.bin';

/** A store as Spool wrote it before migration 3: layouts as msgpack objects, one file node pointing at one. */
async function oldStore(dir: string, layouts: Record<string, FileLayout>): Promise<void> {
  const store = openStore({ rootPath: dir });
  migrate(store, 'vfs', VFS_MIGRATIONS.slice(0, 2));
  const db = store.openDb('vfs-layouts');
  for (const [id, layout] of Object.entries(layouts)) await db.put(id, layout);
  await store.close();
  const dirNode = (path: string) =>
    ({
      path,
      name: path.split('/').pop(),
      type: 'directory',
      size: 0,
      createdAt: 1,
      modifiedAt: 1,
      etag: '"d"',
    }) as VfsNode;
  await writeLegacyNodes(dir, [
    ...['/complete', '/complete/default', '/complete/default/Release'].map(dirNode),
    {
      path: PATH,
      name: 'file.bin',
      type: 'file',
      size: layouts.file!.size,
      createdAt: 1,
      modifiedAt: 1,
      etag: '"f"',
      layoutId: 'file',
      segmentCount: layouts.file!.segments.length,
    },
  ]);
}

const treeOf = (store: Store) =>
  new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') });

async function collect(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

test('an LMDB written with msgpack layouts opens, migrates to packed layouts and reads the same bytes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-mig3-'));
  try {
    const bytes = randomBytes(300_000);
    const { layout, articles } = memoryArticles(bytes, 7_000);
    const big = realisticLayout({ articles: 10_000, style: 'random-part' });
    const half = realisticLayout({ articles: 500, style: 'timestamp' });
    await oldStore(dir, { file: layout, big, half });
    const store = openStore({ rootPath: dir });
    const db = store.openDb('vfs-layouts');
    // a record already packed (as a run cut short would leave it) is read as it is and left alone
    await db.put('half', encodeLayout(half));
    assert.deepEqual(treeOf(store).layout('half'), half);
    assert.deepEqual(treeOf(store).layout('big'), big, 'the old form reads before the migration');
    const result = migrate(store, 'vfs', VFS_MIGRATIONS);
    assert.deepEqual(result.applied, [VFS_MIGRATIONS[2]!.description, VFS_MIGRATIONS[3]!.description]);
    for (const id of ['file', 'big', 'half']) assert.ok(isPackedLayout(db.get(id)), `${id} packed`);
    assert.ok((db.get('big') as Uint8Array).length < 10_000 * 25, 'the big layout under 25 bytes per article');
    const tree = treeOf(store);
    assert.deepEqual(tree.layout('file'), layout);
    assert.deepEqual(tree.layout('big'), big);
    const vfs = new VfsService({ tree, sidecarDir: join(dir, 'sidecars') });
    const reader = new VfsReader(vfs, new MapSource(articles), testReaderSettings);
    const signal = new AbortController().signal;
    assert.deepEqual(await collect(reader.read(PATH, 0, bytes.length, signal)), bytes);
    assert.deepEqual(await collect(reader.read(PATH, 12_345, 20_000, signal)), bytes.subarray(12_345, 32_345));
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a process killed in the middle of migration 3 leaves the old records whole; the next start completes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-mig3-crash-'));
  try {
    const layouts: Record<string, FileLayout> = { file: memoryArticles(randomBytes(50_000), 5_000).layout };
    for (let i = 0; i < 40; i++)
      layouts[`l${i}`] = realisticLayout({ articles: 200 + i, style: 'sequential', seed: i });
    await oldStore(dir, layouts);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../../tests/support/vfs/pack-migration-child.ts'), dir, '20'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
    assert.equal(signal, 'SIGKILL', `the child was to die mid-migration (${out})`);
    const store = openStore({ rootPath: dir });
    assert.equal(schemaVersion(store, 'vfs'), 2, 'the step is not recorded');
    const db = store.openDb('vfs-layouts');
    const tree = treeOf(store);
    for (const [id, layout] of Object.entries(layouts)) {
      assert.ok(!isPackedLayout(db.get(id)), `${id}: nothing of the killed transaction was committed`);
      assert.deepEqual(tree.layout(id), layout);
    }
    migrate(store, 'vfs', VFS_MIGRATIONS);
    assert.equal(schemaVersion(store, 'vfs'), VFS_MIGRATIONS.length);
    for (const [id, layout] of Object.entries(layouts)) {
      assert.ok(isPackedLayout(db.get(id)), `${id} packed on the second start`);
      assert.deepEqual(tree.layout(id), layout);
    }
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
