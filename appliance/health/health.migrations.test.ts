import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { migrate, openStore, schemaVersion, type Key } from '../store/index.js';
import { keyOf } from '../vfs/tree.store.js';
import { healthMigrations } from './health.migrations.js';
import { LmdbHealthStore, openHealthStore } from './health.store.js';
import type { HealthRecord } from './health.types.js';
import { openTreeNodes } from '../vfs/tree-nodes.store.js';

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
    const nodes = openTreeNodes(store);
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
    assert.equal(schemaVersion(store, 'health'), 3, 'every step applied (3: the index of records with bad news)');
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

test('migration 2 keys the due index by tier and counts verdict times, file ages and articles of older records', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-health-mig2-'));
  const store = openStore({ rootPath: dir });
  try {
    migrate(
      store,
      'health',
      healthMigrations((_s, writes) => assert.equal(writes.length, 0, 'no legacy nodes')).slice(0, 1),
    );
    // Two records as a Spool of schema 1 stored them: the due index without a tier, no 'v', 'f' or 't' keys.
    const records = store.openDb<HealthRecord, number>('health-records');
    const index = store.openDb<number | null, Key>('health-index');
    const DAY = 86_400_000;
    const rec = (id: number, over: Partial<HealthRecord>): HealthRecord => ({
      ...{ id, path: `/complete/m${id}.mkv`, sourceNzbPath: null, status: 'healthy', settledStatus: 'healthy' },
      ...{ verdict: 'healthy', lastError: null, errorDetails: null, retryCount: 0, repairRetryCount: 0 },
      ...{ lastCheckedAt: 50 * DAY, createdAt: 1, fileCreatedAt: 1, nextCheckAt: 60 * DAY, manual: null },
      ...{ repairNextAt: null, missing: [], readEvidence: [], checkedSegments: 10, totalSegments: 100 },
      ...over,
    });
    const a = rec(1, {});
    const b = rec(2, {
      status: 'pending',
      verdict: null,
      lastCheckedAt: null,
      fileCreatedAt: 40 * DAY,
      totalSegments: 0,
    });
    await store.transaction(() => {
      for (const r of [a, b]) {
        void records.put(r.id, r);
        void index.put(['p', r.path], r.id);
        void index.put(['c', r.createdAt, r.id], null);
        void index.put(['s', r.status, r.createdAt, r.id], null);
        void index.put(['d', r.nextCheckAt!, r.id], null);
      }
      void index.put(['k', 'healthy'], 1);
      void index.put(['k', 'pending'], 1);
      void index.put(['n'], 3);
    });
    const health = openHealthStore(store);
    assert.equal(schemaVersion(store, 'health'), 3);
    assert.deepEqual(
      (await health.due(61 * DAY, 10)).map((r) => r.id),
      [1, 2],
      'both due, found under the tiered keys',
    );
    assert.equal(await health.dueCount(61 * DAY), 2);
    assert.equal(index.get(['d', 60 * DAY, 1]), undefined, 'the old key is gone');
    assert.equal(await health.nextDueAt(), 60 * DAY);
    assert.equal(await health.verifiedSince(45 * DAY), 1);
    assert.equal(await health.filesCreatedBetween(30 * DAY, 50 * DAY), 1);
    assert.deepEqual(await health.articleTotals(), { files: 1, articles: 100 });
    // A later write keeps the totals right (dropped and added with the record).
    await health.update(1, (r) => ({ ...r, totalSegments: 120 }));
    assert.deepEqual(await health.articleTotals(), { files: 1, articles: 120 });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
