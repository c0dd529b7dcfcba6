import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { migrate, openStore, schemaVersion, type Store } from '../store/index.js';
import { rawNodeRecords, writeLegacyNodes } from '../../tests/support/vfs/legacy-nodes.js';
import { NODES_PER_BATCH, VFS_MIGRATIONS } from './tree.migrations.js';
import { nodeRecord, openTreeNodes } from './tree-nodes.store.js';
import { keyOf, LmdbTreeStore } from './tree.store.js';
import type { VfsNode } from './types.js';

/** Nodes of every shape a tree holds, `files` of them in one folder (and the folders above it). */
function library(files: number): VfsNode[] {
  const dir = (path: string): VfsNode => ({
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    type: 'directory',
    size: 0,
    createdAt: 1_700_000_000_000,
    modifiedAt: 1_700_000_000_000,
    etag: `"d-${path.length}"`,
  });
  const job = '/complete/tv/Show.S01 – ünïcode & <odd> #1';
  const nodes = ['/complete', '/complete/tv', job].map(dir);
  for (let i = 0; i < files; i++) {
    const path = `${job}/Show.S01E${String(i).padStart(5, '0')} 'name' #${i}.mkv`;
    const base = { path, name: path.slice(job.length + 1), type: 'file' as const, size: 700_000 + i };
    const node: VfsNode = { ...base, createdAt: 1_700_000_000_000 + i, modifiedAt: 1_700_000_000_000, etag: `"e${i}"` };
    // the optional fields in several combinations and orders, as imports, spreads and PostgreSQL rows build them
    if (i % 7 !== 0) Object.assign(node, { layoutId: `layout-${i}`, segmentCount: 1 + (i % 50) });
    if (i % 3 === 0) node.sourceNzbPath = `/nzbs/show-${i % 11}.nzb`;
    if (i % 4 === 0) node.queueItemId = i;
    if (i % 5 === 0) node.probe = i % 10 === 0 ? { samplePercentage: 5, at: i } : { at: i, samplePercentage: 100 };
    if (i % 6 === 0) node.durationSeconds = 1_320.5 + i;
    if (i % 97 === 0) Object.assign(node, { encryption: 'aes', passwordProtected: true });
    if (i % 89 === 0) node.sidecarId = `sidecar-${i}`;
    if (i % 83 === 0) node.deadProps = { '{urn:x}rating': `<x:rating>${i}</x:rating>`, [`{DAV:}p${i}`]: '' };
    if (i % 101 === 0) Object.assign(node, { durationSeconds: undefined }); // an explicit undefined field
    if (i % 103 === 0) Object.assign(node, { legacyField: 'kept as it is' }); // a field no node type names
    nodes.push(i % 2 === 0 ? node : (Object.fromEntries(Object.entries(node).reverse()) as unknown as VfsNode));
  }
  return nodes;
}

/** Every node reads back equal (`get` and its folder's listing), through the tree as the app opens it. */
function assertEveryNodeReads(store: Store, nodes: readonly VfsNode[]): void {
  const tree = new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') });
  for (const node of nodes) assert.deepStrictEqual(tree.get(node.path), node, node.path);
  const job = nodes[2]!.path;
  const listed = new Map(tree.children(job).map((n) => [n.path, n]));
  assert.equal(listed.size, nodes.length - 3);
  for (const node of nodes.slice(3)) assert.deepStrictEqual(listed.get(node.path), node, `${node.path} listed`);
}

/** Record forms: msgpack fixext 1/2 of type 'r' (0x72) opens a definition carried inline; 0x40-0x7f names a shared one. */
const inline = (raw: Buffer) => (raw[0] === 0xd4 || raw[0] === 0xd5) && raw[1] === 0x72;
const shared = (raw: Buffer) => raw[0]! >= 0x40 && raw[0]! <= 0x7f;
const rawKey = (path: string) => keyOf(path).join('\u0000');
/** A node shape the shared list takes: only node and probe fields (not dead properties' keys, not unknown ones). */
const shareable = (n: VfsNode) => !('legacyField' in n);

async function oldStore(nodes: readonly VfsNode[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-mig4-'));
  const store = openStore({ rootPath: dir });
  migrate(store, 'vfs', VFS_MIGRATIONS.slice(0, 3));
  await store.close();
  await writeLegacyNodes(dir, nodes);
  return dir;
}

test('migration 4 rewrites nodes written with inline definitions; every node reads back equal, before and after', async () => {
  const nodes = library(2 * NODES_PER_BATCH + 321);
  const dir = await oldStore(nodes);
  try {
    const before = await rawNodeRecords(dir);
    assert.equal(before.size, nodes.length);
    assert.ok([...before.values()].every(inline), 'written as Spool wrote them: every record carries its definition');
    let store = openStore({ rootPath: dir });
    assertEveryNodeReads(store, nodes); // the old form reads through the new opener
    assert.deepEqual(migrate(store, 'vfs', VFS_MIGRATIONS).applied, [VFS_MIGRATIONS[3]!.description]);
    assertEveryNodeReads(store, nodes);
    await store.close();

    const after = await rawNodeRecords(dir);
    for (const node of nodes) {
      const raw = after.get(rawKey(node.path))!;
      assert.ok(shareable(node) ? shared(raw) : inline(raw), `${node.path}: ${raw.subarray(0, 2).toString('hex')}`);
    }
    const bytes = (m: Map<string, Buffer>) => [...m.values()].reduce((n, b) => n + b.length, 0);
    assert.ok(bytes(after) < bytes(before) * 0.8, `records smaller: ${bytes(before)} -> ${bytes(after)} bytes`);

    store = openStore({ rootPath: dir }); // a restart: a new encoder loads the definitions from the store
    assertEveryNodeReads(store, nodes);
    assert.deepEqual(migrate(store, 'vfs', VFS_MIGRATIONS).applied, [], 'applied once only');
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a process killed in the middle of migration 4 keeps the pieces it committed; the next start finishes it', async () => {
  const nodes = library(2 * NODES_PER_BATCH + 500);
  const dir = await oldStore(nodes);
  try {
    const killAt = NODES_PER_BATCH + 700; // in the second piece, after the first one committed
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '../../tests/support/vfs/restructure-migration-child.ts'),
        dir,
        String(killAt),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
    assert.equal(signal, 'SIGKILL', `the child was to die mid-migration (${out})`);

    const raw = await rawNodeRecords(dir); // in key order, the order the pieces go in
    const byKey = new Map(nodes.map((n) => [rawKey(n.path), n]));
    [...raw].forEach(([key, bytes], i) => {
      const wanted = i < NODES_PER_BATCH && shareable(byKey.get(key)!) ? 'shared' : 'inline';
      assert.equal(shared(bytes) ? 'shared' : 'inline', wanted, `record ${i}: only the first piece committed`);
    });
    let store = openStore({ rootPath: dir });
    assert.equal(schemaVersion(store, 'vfs'), 3, 'the step is not recorded');
    assert.ok(store.meta.get('migration_progress:vfs:4') !== undefined, 'where the next piece starts is kept');
    assertEveryNodeReads(store, nodes); // half old, half new: every node reads
    await store.close();

    store = openStore({ rootPath: dir });
    assert.deepEqual(migrate(store, 'vfs', VFS_MIGRATIONS).applied, [VFS_MIGRATIONS[3]!.description]);
    assert.equal(store.meta.get('migration_progress:vfs:4'), undefined);
    assertEveryNodeReads(store, nodes);
    await store.close();
    const final = await rawNodeRecords(dir);
    assert.ok(
      nodes.filter(shareable).every((n) => shared(final.get(rawKey(n.path))!)),
      'every node rewritten',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a fresh store writes nodes with shared definitions; its compacted backup copy reads every node back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-fresh-'));
  const copy = mkdtempSync(join(tmpdir(), 'spool-vfs-copy-'));
  try {
    const nodes = library(1_000);
    let store = openStore({ rootPath: dir });
    assert.deepEqual(migrate(store, 'vfs', VFS_MIGRATIONS).applied.length, VFS_MIGRATIONS.length);
    const tree = new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') });
    await tree.write(() => nodes.forEach((n) => tree.put(n)));
    assertEveryNodeReads(store, nodes);
    mkdirSync(join(copy, 'db'));
    await store.snapshot(join(copy, 'db'));
    await store.close();
    const raw = await rawNodeRecords(dir);
    assert.ok(nodes.filter(shareable).every((n) => shared(raw.get(rawKey(n.path))!)));

    store = openStore({ rootPath: copy }); // a restore of the backup: the definitions came with the copy
    assertEveryNodeReads(store, nodes);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
});

test('a node is written in one field order whatever order it was built in, with the same fields and values', () => {
  const a = {
    etag: '"x"',
    path: '/a',
    probe: { samplePercentage: 5, at: 1 },
    name: 'a',
    extra: 1,
  } as unknown as VfsNode;
  const rec = nodeRecord(a);
  assert.deepStrictEqual(rec, a);
  assert.deepEqual(Object.keys(rec), ['path', 'name', 'etag', 'probe', 'extra']);
  assert.deepEqual(Object.keys(rec.probe!), ['at', 'samplePercentage']);
});

test('a tree write that throws after meeting a new node shape leaves no record naming a lost definition', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-rollback-'));
  try {
    let store = openStore({ rootPath: dir });
    migrate(store, 'vfs', VFS_MIGRATIONS);
    const tree = new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') });
    const [, , folder] = library(0);
    const file = (name: string): VfsNode => ({
      ...{ path: `${folder!.path}/${name}`, name, type: 'file', size: 1, createdAt: 1, modifiedAt: 1, etag: '"f"' },
      ...{ layoutId: `layout-${name}`, segmentCount: 1, durationSeconds: 60 },
    });
    const [first, second] = [file('a.mkv'), file('b.mkv')];
    await tree.write(() => tree.put(folder!));
    // the first file's shape is new: its definition is saved inside this write, which then rolls back
    await assert.rejects(
      tree.write(() => {
        tree.put(first!);
        throw new Error('refused');
      }),
      /refused/,
    );
    await tree.write(() => tree.put({ ...first!, etag: '"again"' }));
    await tree.write(() => tree.put(second!));
    await store.close();
    store = openStore({ rootPath: dir }); // a restart: only what the store holds
    const again = new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') });
    assert.deepStrictEqual(again.get(first!.path), { ...first!, etag: '"again"' });
    assert.deepStrictEqual(again.get(second!.path), second);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
