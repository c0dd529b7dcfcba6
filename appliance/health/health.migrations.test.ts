import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { migrate, openStore, schemaVersion } from '../store/index.js';
import { keyOf } from '../vfs/tree.store.js';
import { healthMigrations } from './health.migrations.js';
import { LmdbHealthStore, openHealthStore } from './health.store.js';
import type { HealthRecord } from './health.types.js';

const file = (path: string, extra: Record<string, unknown>) => ({
  path,
  name: path.split('/').pop(),
  type: 'file',
  size: 3000,
  createdAt: 1_000,
  modifiedAt: 1_000,
  etag: '"x"',
  layoutId: `layout-${path}`,
  ...extra,
});

test('migration 1 moves health and missing articles from tree nodes into the health records', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-health-mig1-'));
  const store = openStore({ rootPath: dir });
  try {
    const nodes = store.openDb('vfs-nodes');
    const dirNode = { path: '/complete', name: 'complete', type: 'directory', size: 0, createdAt: 1, modifiedAt: 1 };
    const A = '/complete/a.mkv'; // checked corrupted; its record has the verdict's missing article
    const B = '/complete/b.mkv'; // partial on the node only (its record was deleted)
    const C = '/complete/c.mkv'; // pending, nothing known
    const D = '/complete/d.mkv'; // healthy, with a record; a read's missing mark on the node only
    await nodes.put(keyOf('/complete'), dirNode);
    await nodes.put(keyOf(A), file(A, { health: 'corrupted', missingSegments: ['a0'] }));
    await nodes.put(keyOf(B), file(B, { health: 'partial', missingSegments: ['b1', 'b2'], sourceNzbPath: 'b.nzb' }));
    await nodes.put(keyOf(C), file(C, { health: 'pending' }));
    await nodes.put(keyOf(D), file(D, { health: 'healthy', missingSegments: ['d2'] }));
    // Records as a Spool before this step wrote them: no `verdict` field.
    const before = new LmdbHealthStore(store);
    const record = (path: string, missing: string[]): Omit<HealthRecord, 'id'> => ({
      ...{ path, sourceNzbPath: null, status: 'corrupted', settledStatus: 'corrupted', lastError: null },
      ...{ errorDetails: null, retryCount: 0, repairRetryCount: 0, lastCheckedAt: 5, createdAt: 5, fileCreatedAt: 1 },
      ...{ nextCheckAt: 99, manual: null, repairNextAt: null, readEvidence: [], checkedSegments: 3, totalSegments: 3 },
      missing: missing.map((messageId, index) => ({ messageId, index, start: 0, end: 1000, damaged: false })),
    });
    await before.upsert(
      A,
      () => record(A, ['a0']),
      (r) => r,
    );
    await before.upsert(
      D,
      () => ({ ...record(D, []), status: 'healthy', settledStatus: 'healthy' }),
      (r) => r,
    );

    const health = openHealthStore(store);
    assert.equal(schemaVersion(store, 'health'), 2, 'every step applied (2: the indexes of the schedule)');
    for (const p of [A, B, C, D]) {
      const node = nodes.get(keyOf(p)) as Record<string, unknown>;
      assert.ok(!('health' in node) && !('missingSegments' in node), `${p}: no health left on the node`);
      assert.equal(node.layoutId, `layout-${p}`, 'the rest of the node is kept');
    }
    const a = (await health.byPath(A))!;
    assert.equal(a.verdict, 'corrupted');
    assert.deepEqual(a.readEvidence, [], "a0 is the verdict's own missing article");
    const b = (await health.byPath(B))!;
    assert.equal(b.verdict, 'partial');
    assert.equal(b.status, 'partial');
    assert.equal(b.sourceNzbPath, 'b.nzb');
    assert.deepEqual(b.readEvidence, ['b1', 'b2']);
    assert.equal(await health.byPath(C), undefined, 'nothing known: reconcile gives it a pending record at start');
    const d = (await health.byPath(D))!;
    assert.equal(d.verdict, 'healthy');
    assert.deepEqual(d.readEvidence, ['d2']);
    assert.deepEqual(await health.counts(), {
      pending: 0,
      checking: 0,
      healthy: 1,
      partial: 1,
      corrupted: 1,
      repair_triggered: 0,
    });
    // The port answers from what moved: the listing filter and the reader's recovered marks.
    assert.equal(health.verdicts.corrupted(A), true);
    assert.equal(health.verdicts.corrupted(B), false);
    assert.equal(health.verdicts.unavailable(B, 'b2'), true);
    assert.equal(health.verdicts.unavailable(D, 'd2'), true);
    const again = migrate(
      store,
      'health',
      healthMigrations(() => assert.fail('not run twice')),
    );
    assert.equal(again.applied.length, 0, 'applied once only');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
