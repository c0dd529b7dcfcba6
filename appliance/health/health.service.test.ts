import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fileMeta } from '../vfs/file-meta.js';
import { healthHarness, type HealthHarness } from '../../tests/support/health/harness.js';

let h: HealthHarness;
afterEach(() => h?.close());

/** Queue a manual check of `path` and let the worker run it. */
async function checkNow(path: string) {
  const r = await h.health.service.check(path, undefined, true);
  await h.drain();
  return await h.health.service.byId(r.id);
}

test('an imported file gets a pending record; a check of a good file STATs a sample and BODYs a few, on the health lane', async () => {
  h = await healthHarness({ segment_sample_percentage: 10 });
  const path = await h.addFile('Good', 200);
  const rec = await h.health.service.byPath(path);
  assert.equal(rec.status, 'pending');
  assert.equal(rec.sourceNzbPath, 'Good.nzb');
  const done = await checkNow(path);
  assert.equal(done.status, 'healthy');
  assert.equal(done.lastError, null);
  assert.ok(done.lastCheckedAt !== null);
  const stats = h.articles.requests.filter((r) => r.kind === 'stat').map((r) => r.id);
  assert.ok(stats.includes('Good-0') && stats.includes('Good-199'), 'first and last article');
  // 10% of 200, plus first and last, plus the spot-checked ones (STATed too).
  assert.ok(stats.length >= 20 && stats.length <= 25, `${stats.length} STATs for 10% of 200`);
  assert.equal(h.articles.requests.filter((r) => r.kind === 'body').length, 3, 'three BODY spot-checks');
  assert.ok(h.articles.requests.every((r) => r.lane === 'health'));
  assert.equal((await h.health.service.byPath(path)).verdict, 'healthy', 'the verdict is kept on the record');
  assert.equal(h.repairer.calls.length, 0, 'a good file is never repaired');
});

test('a missing article found by the sample widens to every article: exact ranges, partial or corrupted', async () => {
  h = await healthHarness({ check_all_segments: true });
  const partial = await h.addFile('Holes', 200);
  h.articles.missing.add('Holes-50');
  const p = await checkNow(partial);
  assert.equal(p.status, 'partial', '1 of 200 (0.5%) is a hole, not corruption');
  assert.deepEqual(
    p.missing.map((m) => [m.messageId, m.start, m.end]),
    [['Holes-50', 50_000, 51_000]],
  );
  const meta = fileMeta(h.vfs, partial, await h.health.service.fileHealth(partial));
  assert.equal(meta.available_segments, 199);
  assert.equal(meta.segments[50]!.available, false);
  assert.equal(h.health.json(p).missing_ranges[0]!.end_offset, 50_999);

  const tail = await h.addFile('Tail', 50);
  h.articles.missing.add('Tail-49');
  assert.equal((await checkNow(tail)).status, 'corrupted', 'the last article holds the index: corrupted');
  const many = await h.addFile('Many', 100);
  for (const i of [10, 20]) h.articles.missing.add(`Many-${i}`);
  assert.equal((await checkNow(many)).status, 'corrupted', '2% missing is above the threshold');
});

test('a body the provider still STATs but cannot deliver intact is found by the BODY spot-check', async () => {
  h = await healthHarness();
  const path = await h.addFile('Rotten', 3);
  h.articles.damaged.add('Rotten-1');
  const r = await checkNow(path);
  assert.equal(r.status, 'corrupted');
  assert.deepEqual(
    r.missing.map((m) => [m.messageId, m.damaged]),
    [['Rotten-1', true]],
  );
  assert.match(r.lastError ?? '', /1 damaged of 3 articles/);
});

test('an outage is no verdict: retried later up to max_retries, the record says why, nothing is repaired', async () => {
  h = await healthHarness({ max_retries: 2, auto_repair_enabled: true });
  const path = await h.addFile('Down', 20);
  h.articles.down = true;
  const r1 = await checkNow(path);
  assert.equal(r1.status, 'pending', 'back to what it was');
  assert.equal(r1.retryCount, 1);
  assert.match(r1.lastError ?? '', /No verdict/);
  assert.match(r1.errorDetails ?? '', /connect timed out/);
  assert.deepEqual(r1.missing, []);
  await h.clock.advance(60_000); // first retry after a minute
  await h.drain();
  const r2 = await h.health.service.byId(r1.id);
  assert.equal(r2.retryCount, 2);
  await h.clock.advance(120_000);
  await h.drain();
  const r3 = await h.health.service.byId(r1.id);
  assert.equal(r3.retryCount, 0, 'gave up for now');
  assert.match(r3.lastError ?? '', /after 2 retries/);
  assert.equal(r3.status, 'pending');
  assert.equal(h.repairer.calls.length, 0);
  assert.equal(r3.verdict, null, 'no verdict from an outage');
  h.articles.down = false;
  assert.equal((await checkNow(path)).status, 'healthy');
});

test('cancel stops a running check and puts the record back', async () => {
  h = await healthHarness();
  const path = await h.addFile('Slow', 20);
  let release!: () => void;
  h.articles.hold = new Promise((r) => (release = r));
  const r = await h.health.service.check(path, undefined, true);
  await h.clock.advance(0);
  await h.until(async () => (await h.health.service.byId(r.id)).status === 'checking');
  assert.equal((await h.health.service.workerStatus()).active_checks, 1);
  await h.health.service.cancel(r.id);
  await h.drain();
  const after = await h.health.service.byId(r.id);
  assert.equal(after.status, 'pending');
  assert.equal(after.lastError, 'Check cancelled');
  release();
  await assert.rejects(h.health.service.cancel(r.id), /No check is running/);
});

test('manual checks jump the schedule, priority first; scheduled checks wait for their time (age tier)', async () => {
  h = await healthHarness({ max_concurrent_jobs: 1, check_interval_seconds: 60 });
  const a = await h.addFile('A', 5);
  const b = await h.addFile('B', 5);
  const c = await h.addFile('C', 5);
  const svc = h.health.service;
  await svc.check(a, undefined, false);
  await svc.check(b, undefined, false);
  await svc.check(c, undefined, true);
  assert.equal((await svc.workerStatus()).pending_manual_checks, 3);
  await h.drain();
  const order = [...new Set(h.articles.requests.map((r) => r.id.split('-')[0]))];
  assert.deepEqual(order, ['C', 'A', 'B'], 'the priority check first, then in order, one at a time');
  assert.equal((await svc.workerStatus()).pending_manual_checks, 0);
  assert.equal((await svc.workerStatus()).total_files_checked, 3);
  // Next checks follow the file's age tier: a new file is looked at again a day later (tier_new_interval_hours).
  const rec = await svc.byPath(a);
  assert.equal(rec.nextCheckAt! - rec.lastCheckedAt!, 24 * 3600_000);
  const before = h.articles.requests.length;
  await h.clock.advance(23 * 3600_000);
  assert.equal(h.articles.requests.length, before, 'not due yet');
  await h.clock.advance(3600_000 + 1000);
  await h.drain();
  assert.ok(h.articles.requests.length > before, 'checked again when due');
});

test('monitoring disabled: no scheduled checks, manual ones still run; worker says stopped', async () => {
  h = await healthHarness({ enabled: false });
  const path = await h.addFile('Off', 5);
  await h.clock.advance(3_600_000);
  assert.equal(h.articles.requests.length, 0);
  assert.equal((await h.health.service.workerStatus()).status, 'stopped');
  assert.equal((await checkNow(path)).status, 'healthy');
});

test('records follow their files: removed with them, moved with them', async () => {
  h = await healthHarness();
  const exists = async (p: string) =>
    (await h.health.service.list({ limit: 0, offset: 0, sortBy: 'file_path', sortOrder: 'asc' })).items.some(
      (r) => r.path === p,
    );
  const a = await h.addFile('Gone', 5);
  const b = await h.addFile('Moved', 5);
  await h.vfs.remove('/complete/movies/Gone');
  await h.until(async () => !(await exists(a)));
  await h.vfs.transfer('/complete/movies/Moved', '/complete/movies/Renamed', { mode: 'move', overwrite: false });
  await h.until(async () => !(await exists(b)));
  assert.equal((await h.health.service.byPath('/complete/movies/Renamed/Moved.mkv')).sourceNzbPath, 'Moved.nzb');
});

test('list: filter by status, search, sort by path, page with total', async () => {
  h = await healthHarness();
  for (const n of ['Beta', 'Alpha', 'Gamma']) await h.addFile(n, 5);
  h.articles.missing.add('Gamma-0');
  await checkNow('/complete/movies/Gamma/Gamma.mkv');
  const svc = h.health.service;
  const q = { limit: 2, offset: 0, sortBy: 'file_path' as const, sortOrder: 'asc' as const };
  const page1 = await svc.list(q);
  assert.equal(page1.total, 3);
  assert.deepEqual(
    page1.items.map((r) => r.path.split('/').pop()),
    ['Alpha.mkv', 'Beta.mkv'],
  );
  assert.deepEqual(
    (await svc.list({ ...q, offset: 2 })).items.map((r) => r.path.split('/').pop()),
    ['Gamma.mkv'],
  );
  assert.deepEqual(
    (await svc.list({ ...q, status: 'corrupted' })).items.map((r) => r.path.split('/').pop()),
    ['Gamma.mkv'],
  );
  assert.equal((await svc.list({ ...q, search: 'alp' })).total, 1);
  assert.equal(
    (await svc.list({ ...q, sortBy: 'created_at', sortOrder: 'desc' })).items[0]!.path.split('/').pop(),
    'Gamma.mkv',
  );
  assert.deepEqual(await svc.stats(), {
    total: 3,
    pending: 2,
    checking: 0,
    healthy: 0,
    partial: 0,
    corrupted: 1,
    repair_triggered: 0,
  });
});

test('a file tracked before its import was announced (a read, the start walking the tree) learns its NZB then', async () => {
  h = await healthHarness({ enabled: false });
  const path = await h.addFile('Early', 3);
  const r = (await h.healthStore.byPath(path))!;
  await h.healthStore.update(r.id, (x) => ({ ...x, sourceNzbPath: null }));
  await h.health.service.filesAdded([path]);
  const after = (await h.healthStore.byPath(path))!;
  assert.equal(after.sourceNzbPath, 'Early.nzb');
  assert.equal(after.createdAt, r.createdAt, 'the same record, kept');
});
