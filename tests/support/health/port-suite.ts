/**
 * The health store's port (appliance/health/health.port.ts), asserted the same way on every store:
 * appliance/health/health.port.test.ts runs it on LMDB, tests/integration/postgres/health-port-pg.test.ts on
 * PostgreSQL. The repair ledger's port: tests/support/repair/brake-suite.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { HealthStore } from '../../../appliance/health/index.js';
import type { NewHealthRecord } from '../../../appliance/health/health.port.js';
import type { HealthRecord } from '../../../appliance/health/health.types.js';

export interface PortUnderTest {
  /** A new empty store, and how to let it go. */
  open(): Promise<{ store: HealthStore; close(): Promise<void> }>;
}

/** A record's fields over a pending, never-checked default. */
export function newRecord(over: Partial<NewHealthRecord> = {}): NewHealthRecord {
  return {
    path: '',
    sourceNzbPath: null,
    status: 'pending',
    settledStatus: 'pending',
    verdict: null,
    lastError: null,
    errorDetails: null,
    retryCount: 0,
    repairRetryCount: 0,
    lastCheckedAt: null,
    createdAt: 1_000,
    fileCreatedAt: 1_000,
    nextCheckAt: null,
    manual: null,
    repairNextAt: null,
    missing: [],
    readEvidence: [],
    checkedSegments: 0,
    totalSegments: 0,
    ...over,
  };
}

const paths = (rs: readonly (HealthRecord | undefined)[]) => rs.map((r) => r?.path);

export function healthPortSuite(name: string, s: PortUnderTest): void {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });
  const open = async () => {
    const o = await s.open();
    close = o.close;
    return o.store;
  };
  const add = (store: HealthStore, path: string, over: Partial<NewHealthRecord> = {}) =>
    store.upsert(
      path,
      () => newRecord(over),
      (r) => r,
    );

  test(`${name}: ids rise from 1; an upsert of a known path changes its record; reads by id, path and folder`, async () => {
    const store = await open();
    const a = await add(store, '/m/A/a.mkv', { createdAt: 5 });
    const b = await add(store, '/m/B/b.mkv', { createdAt: 6 });
    await add(store, '/m/A b/c.mkv', { createdAt: 7 });
    await add(store, '/m/A/sub/d.mkv', { createdAt: 8 });
    assert.deepEqual([a.id, b.id], [1, 2]);
    const again = await store.upsert(
      '/m/A/a.mkv',
      () => newRecord(),
      (r) => ({ ...r, retryCount: 3 }),
    );
    assert.equal(again.id, 1);
    assert.equal((await store.get(1))?.retryCount, 3);
    assert.deepEqual(await store.byPath('/m/B/b.mkv'), { ...newRecord({ createdAt: 6 }), id: 2, path: '/m/B/b.mkv' });
    assert.equal(await store.byPath('/nothing'), undefined);
    assert.equal(await store.get(99), undefined);
    assert.deepEqual(paths(await store.under('/m/A')), ['/m/A/a.mkv', '/m/A/sub/d.mkv'], 'not /m/A b');
    assert.deepEqual(paths(await store.under('/m/A/')), ['/m/A/a.mkv', '/m/A/sub/d.mkv']);
    assert.deepEqual(
      (await store.all()).map((r) => r.id),
      [1, 2, 3, 4],
    );
    assert.deepEqual(paths(await store.withStatus('pending')), [
      '/m/A/a.mkv',
      '/m/B/b.mkv',
      '/m/A b/c.mkv',
      '/m/A/sub/d.mkv',
    ]);
    const removed = await store.remove(2);
    assert.equal(removed?.path, '/m/B/b.mkv', 'a removed record as it was');
    assert.equal(await store.remove(2), undefined);
    const next = await add(store, '/m/B/b.mkv');
    assert.equal(next.id, 5, 'ids are never given twice');
  });

  test(`${name}: a unit of work applies in order, all or none; rename replaces a record at the target`, async () => {
    const store = await open();
    const a = await add(store, '/a', { createdAt: 1 });
    const b = await add(store, '/b', { createdAt: 2 });
    const out = await store.commit([
      { op: 'update', id: a.id, change: (r) => ({ ...r, retryCount: 1 }) },
      { op: 'update', id: a.id, change: (r) => ({ ...r, retryCount: r.retryCount + 1 }) },
      { op: 'update', id: b.id, change: () => null },
      { op: 'update', id: 77, change: (r) => r },
      { op: 'remove', id: 77 },
    ]);
    assert.deepEqual(
      out.map((r) => r?.retryCount),
      [1, 2, 0, undefined, undefined],
    );
    await assert.rejects(
      store.commit([
        { op: 'upsert', path: '/c', create: () => newRecord(), change: (r) => r },
        { op: 'remove', id: b.id },
        {
          op: 'update',
          id: a.id,
          change: () => {
            throw new Error('boom');
          },
        },
      ]),
      /boom/,
    );
    assert.deepEqual(paths(await store.all()), ['/a', '/b'], 'nothing of the failed unit');
    await store.rename(a.id, '/b');
    assert.deepEqual(await store.all(), [{ ...a, retryCount: 2, path: '/b' }], 'the record at /b replaced');
    assert.equal((await store.byPath('/b'))?.id, a.id);
    assert.equal(await store.byPath('/a'), undefined);
    await store.rename(a.id, '/b'); // onto itself: nothing changes
    assert.equal((await store.byPath('/b'))?.id, a.id);
  });

  test(`${name}: the console's list: filters, search, sorts, pages and totals`, async () => {
    const store = await open();
    await add(store, '/m/Zeta.mkv', { createdAt: 30, status: 'healthy', sourceNzbPath: '/nzb/Alpha.nzb' });
    await add(store, '/m/alpha.mkv', { createdAt: 10, status: 'corrupted' });
    await add(store, '/m/Beta.mkv', { createdAt: 20, status: 'pending' });
    await add(store, '/m/Éclair.mkv', { createdAt: 20, status: 'healthy' });
    await add(store, '/m/gamma.mkv', { createdAt: 40, status: 'pending', sourceNzbPath: '/nzb/other.nzb' });
    const list = async (q: Partial<Parameters<HealthStore['list']>[0]>) => {
      const { items, total } = await store.list({ limit: 0, offset: 0, sortBy: 'created_at', sortOrder: 'desc', ...q });
      return { paths: items.map((r) => r.path.slice(3)), total };
    };
    assert.deepEqual(await list({}), {
      paths: ['gamma.mkv', 'Zeta.mkv', 'Éclair.mkv', 'Beta.mkv', 'alpha.mkv'],
      total: 5,
    });
    assert.deepEqual((await list({ sortOrder: 'asc' })).paths, [
      'alpha.mkv',
      'Beta.mkv',
      'Éclair.mkv',
      'Zeta.mkv',
      'gamma.mkv',
    ]);
    assert.deepEqual((await list({ sortBy: 'file_path', sortOrder: 'asc' })).paths, [
      'Beta.mkv',
      'Zeta.mkv',
      'alpha.mkv',
      'gamma.mkv',
      'Éclair.mkv',
    ]);
    assert.deepEqual((await list({ sortBy: 'status', sortOrder: 'asc' })).paths, [
      'Beta.mkv',
      'gamma.mkv',
      'Éclair.mkv',
      'Zeta.mkv',
      'alpha.mkv',
    ]);
    assert.deepEqual((await list({ sortBy: 'status', sortOrder: 'desc' })).paths, [
      'alpha.mkv',
      'Zeta.mkv',
      'Éclair.mkv',
      'gamma.mkv',
      'Beta.mkv',
    ]);
    assert.deepEqual(await list({ status: 'healthy' }), { paths: ['Zeta.mkv', 'Éclair.mkv'], total: 2 });
    assert.deepEqual(await list({ since: 20, sortOrder: 'asc' }), {
      paths: ['Beta.mkv', 'Éclair.mkv', 'Zeta.mkv', 'gamma.mkv'],
      total: 4,
    });
    assert.deepEqual(await list({ search: '  ALPHA ' }), { paths: ['Zeta.mkv', 'alpha.mkv'], total: 2 }, 'NZB too');
    assert.deepEqual(await list({ search: 'éCLAIR' }), { paths: ['Éclair.mkv'], total: 1 }, 'beyond ASCII');
    assert.deepEqual(await list({ search: 'OTHER', status: 'pending' }), { paths: ['gamma.mkv'], total: 1 });
    assert.deepEqual(await list({ limit: 2, offset: 1 }), { paths: ['Zeta.mkv', 'Éclair.mkv'], total: 5 });
    assert.deepEqual(await list({ limit: 2, offset: 9 }), { paths: [], total: 5 });
    assert.deepEqual(await list({ search: '   ' }), await list({}), 'a blank search is none');
  });

  test(`${name}: counts, the schedule's questions, manual checks and repairs due`, async () => {
    const store = await open();
    assert.equal(await store.nextDueAt(), undefined);
    await add(store, '/old-early', { tier: 2, nextCheckAt: 100, fileCreatedAt: 10, status: 'healthy' });
    await add(store, '/new-late', { tier: 0, nextCheckAt: 300, fileCreatedAt: 50 });
    await add(store, '/untiered', { nextCheckAt: 200, fileCreatedAt: 20 });
    await add(store, '/recent', { tier: 1, nextCheckAt: 150, fileCreatedAt: 30, totalSegments: 40 });
    await add(store, '/future', { tier: 0, nextCheckAt: 10_000, totalSegments: 60, lastCheckedAt: 500 });
    await add(store, '/unscheduled', { manual: { priority: false, at: 5 }, lastCheckedAt: 400, status: 'corrupted' });
    await add(store, '/urgent', { manual: { priority: true, at: 9 }, repairNextAt: 250 });
    await add(store, '/first-manual', { manual: { priority: false, at: 1 }, repairNextAt: 50 });
    await add(store, '/repair-later', { repairNextAt: 5_000, lastCheckedAt: 399 });
    assert.deepEqual(paths(await store.due(1_000, 10)), ['/untiered', '/new-late', '/recent', '/old-early']);
    assert.deepEqual(paths(await store.due(1_000, 3)), ['/untiered', '/new-late', '/recent']);
    assert.deepEqual(paths(await store.due(200, 10)), ['/untiered', '/recent', '/old-early'], 'due at its time');
    assert.equal(await store.dueCount(200), 3);
    assert.equal(await store.dueCount(1_000_000), 5);
    assert.deepEqual(paths(await store.manualQueue(10)), ['/urgent', '/first-manual', '/unscheduled']);
    assert.deepEqual(paths(await store.manualQueue(2)), ['/urgent', '/first-manual']);
    assert.equal(await store.manualCount(), 3);
    assert.deepEqual(paths(await store.repairsDue(250)), ['/first-manual', '/urgent']);
    assert.equal(await store.nextDueAt(), 50);
    assert.equal(await store.verifiedSince(400), 2);
    assert.equal(await store.verifiedSince(0), 3);
    assert.equal(await store.filesCreatedBetween(10, 30), 2);
    assert.equal(await store.filesCreatedBetween(0, 1_001), 9);
    assert.deepEqual(await store.articleTotals(), { files: 2, articles: 100 });
    assert.deepEqual(await store.counts(), {
      pending: 7,
      checking: 0,
      healthy: 1,
      partial: 0,
      corrupted: 1,
      repair_triggered: 0,
    });
    // A change moves a record in every index; a removal takes it out of all.
    const first = (await store.byPath('/first-manual'))!;
    await store.update(first.id, (r) => ({ ...r, manual: null, repairNextAt: null, totalSegments: 5 }));
    await store.remove((await store.byPath('/untiered'))!.id);
    assert.deepEqual(paths(await store.manualQueue(10)), ['/urgent', '/unscheduled']);
    assert.equal(await store.nextDueAt(), 100);
    assert.deepEqual(await store.articleTotals(), { files: 3, articles: 105 });
    assert.equal(await store.dueCount(1_000), 3);
    assert.equal((await store.counts()).pending, 6);
  });

  test(`${name}: the verdicts follow what is committed; the in-step marker`, async () => {
    const store = await open();
    const missing = [{ messageId: 'm1', index: 0, start: 0, end: 10, damaged: false }];
    const r = await add(store, '/bad', { verdict: 'corrupted', missing });
    const e = await add(store, '/evidence', { readEvidence: ['e1'] });
    assert.equal(store.verdicts.corrupted('/bad'), true);
    assert.equal(store.verdicts.unavailable('/bad', 'm1'), true);
    assert.equal(store.verdicts.unavailable('/evidence', 'e1'), true);
    assert.equal(store.verdicts.corrupted('/evidence'), false);
    await store.rename(r.id, '/moved');
    assert.equal(store.verdicts.corrupted('/bad'), false);
    assert.equal(store.verdicts.corrupted('/moved'), true);
    await store.update(e.id, (x) => ({ ...x, readEvidence: [] }));
    assert.equal(store.verdicts.unavailable('/evidence', 'e1'), false);
    assert.equal(await store.inStepAt(), undefined);
    await store.setInStepAt(42);
    assert.equal(await store.inStepAt(), 42);
    await store.setInStepAt(undefined);
    assert.equal(await store.inStepAt(), undefined);
  });
}
