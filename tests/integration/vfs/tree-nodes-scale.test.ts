/**
 * The tree's nodes at scale with shared record definitions (appliance/vfs/tree-nodes.store.ts, docs/streaming.md
 * "The tree"): 100,000 files imported through the VFS on a fresh store, then a restart (a fresh process opening the
 * store as the app does) walks the whole tree and reads every node back equal; and a store of 100,000 nodes in the
 * form written before 'vfs' migration 4 is migrated (in its bounded pieces) and read back equal the same way.
 * SPOOL_TREE_SCALE_FILES sets the size (default 100,000); the times are printed, none is asserted.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLogger } from '../../../appliance/logging/logger.js';
import { migrate, openStore } from '../../../appliance/store/index.js';
import { VFS_MIGRATIONS } from '../../../appliance/vfs/tree.migrations.js';
import { openTreeNodes } from '../../../appliance/vfs/tree-nodes.store.js';
import { treeStorage } from '../../../appliance/vfs/tree.storage.js';
import type { VfsNode } from '../../../appliance/vfs/types.js';
import { VfsService } from '../../../appliance/vfs/vfs.service.js';
import { serializeNode, writeLegacyNodes, rawNodeRecords } from '../../support/vfs/legacy-nodes.js';

const FILES = Number(process.env.SPOOL_TREE_SCALE_FILES ?? 100_000);
const PER_JOB = 1_000;
const IN_FLIGHT = 25;
const seconds = (from: number) => ((Date.now() - from) / 1000).toFixed(1);

/** Every node of the store under `root`, as the tree reads it in this process (the state before the restart). */
async function nodesOf(root: string): Promise<Map<string, VfsNode>> {
  const store = openStore({ rootPath: root });
  try {
    const out = new Map<string, VfsNode>();
    for (const { value } of openTreeNodes(store).getRange({})) out.set((value as VfsNode).path, value as VfsNode);
    return out;
  } finally {
    await store.close();
  }
}

/** The restart: a fresh process walks the tree (tests/support/vfs/tree-dump-child.ts); every node equal to `expected`. */
async function assertRestartReadsAll(root: string, expected: Map<string, VfsNode>, files: number): Promise<void> {
  const dump = join(root, 'dump.jsonl');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../../support/vfs/tree-dump-child.ts'), root, root, dump],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  assert.equal(code, 0, out);
  assert.equal(out.trim(), `files ${files} layouts ${files}`, 'every file listed, its layout read');
  const lines = readFileSync(dump, 'utf8').split('\n');
  assert.equal(lines.length, expected.size, 'every node reached through the listings');
  for (const line of lines) {
    const node = JSON.parse(line) as VfsNode;
    const want = expected.get(node.path);
    assert.deepStrictEqual(node, want && JSON.parse(serializeNode(want)), node.path);
  }
}

function fileOf(job: number, i: number) {
  const layout = { size: 700_000, segments: [{ messageId: `${job}.${i}@scale`, start: 0, end: 700_000 }] };
  return {
    name: `Show.S${String(job).padStart(2, '0')}E${String(i).padStart(4, '0')} & 'odd' #${i}.mkv`,
    size: layout.size,
    layout,
    queueItemId: job,
    ...(i % 3 === 0 ? { probe: { at: 1_700_000_000_000 + i, samplePercentage: 5 } } : {}),
    ...(i % 4 === 0 ? { durationSeconds: 1_300 + i } : {}),
    ...(i % 50 === 0 ? { encryption: 'aes', passwordProtected: true } : {}),
  };
}

/** FILES files imported through the VFS into a fresh store under `root` (closed again); prints the time. */
async function importLibrary(root: string): Promise<void> {
  const local = openStore({ rootPath: root });
  const { tree } = treeStorage.lmdb({ local, dataDir: root, logger: createLogger('test', 'error') });
  const vfs = new VfsService({ tree, sidecarDir: join(root, 'sidecars') });
  const at = Date.now();
  // jobs in flight together, as an import queue runs them (each layout commits alone; lmdb joins their commits)
  const jobs = Array.from({ length: Math.ceil(FILES / PER_JOB) }, (_, job) => job);
  const next = async (): Promise<void> => {
    for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
      const count = Math.min(PER_JOB, FILES - job * PER_JOB);
      const files = Array.from({ length: count }, (_, i) => fileOf(job, i));
      await vfs.addJob({ category: 'tv', jobName: `Scale.Job.${job}`, files });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, next));
  console.log(`import: ${FILES} files in ${seconds(at)} s`);
  await local.close();
}

test(`${FILES} files imported on a fresh store read back equal after a restart`, async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-tree-scale-'));
  try {
    await importLibrary(root);
    const expected = await nodesOf(root);
    const at = Date.now();
    await assertRestartReadsAll(root, expected, FILES);
    console.log(`restart: every node read back in ${seconds(at)} s`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test(`${FILES} nodes in the form before migration 4 are migrated and read back equal after a restart`, async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-tree-scale-mig-'));
  try {
    await importLibrary(root);
    const written = await nodesOf(root);
    await writeLegacyNodes(root, written.values(), true); // every node again, each record carrying its definition
    const before = await rawNodeRecords(root);
    assert.ok(
      [...before.values()].every((b) => b[0] === 0xd4 && b[1] === 0x72),
      'the old form',
    );
    const store = openStore({ rootPath: root });
    store.meta.putSync('schema_version:vfs', 3);
    const at = Date.now();
    assert.deepEqual(migrate(store, 'vfs', VFS_MIGRATIONS).applied, [VFS_MIGRATIONS[3]!.description]);
    console.log(`migration 4: ${before.size} nodes rewritten in ${seconds(at)} s`);
    await store.close();
    const after = await rawNodeRecords(root);
    assert.ok(
      [...after.values()].every((b) => b[0]! >= 0x40 && b[0]! <= 0x7f),
      'every node rewritten',
    );
    await assertRestartReadsAll(root, written, FILES);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
