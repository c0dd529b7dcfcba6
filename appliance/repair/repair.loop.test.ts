import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { healthHarness, type HealthHarness } from '../../tests/support/health/harness.js';

let h: HealthHarness;
afterEach(() => h?.close());

async function corrupt(name: string) {
  const path = await h.addFile(name, 10);
  h.articles.missing.add(`${name}-0`);
  const r = await h.health.service.check(path, undefined, true);
  await h.drain();
  return await h.health.service.byId(r.id);
}

test('auto repair: a corrupted file is handed to the arrs once; the record says repair_triggered', async () => {
  h = await healthHarness({ auto_repair_enabled: true });
  const r = await corrupt('Broken');
  assert.equal(r.status, 'repair_triggered');
  assert.equal(r.repairRetryCount, 1);
  assert.deepEqual(h.repairer.calls, [{ path: '/complete/movies/Broken/Broken.mkv', size: 10_000 }]);
  assert.equal(r.nextCheckAt, null, 'no more checks of a file being replaced');
  // A new file at the path (the replacement imported) starts over as pending.
  await h.vfs.addJob({
    category: 'movies',
    jobName: 'Broken',
    replace: true,
    files: [
      {
        name: 'Broken.mkv',
        size: 1000,
        layout: { size: 1000, segments: [{ messageId: 'new-0', start: 0, end: 1000 }] },
      },
    ],
  });
  const broken = '/complete/movies/Broken/Broken.mkv';
  await h.until(async () => {
    const stats = await h.health.service.stats();
    return stats.repair_triggered === 0 && stats.pending === 1;
  });
  const fresh = await h.health.service.byPath(broken);
  assert.equal(fresh.status, 'pending');
  assert.equal(fresh.repairRetryCount, 0);
});

test('auto repair needs monitoring on; partial files are not repaired', async () => {
  h = await healthHarness({ auto_repair_enabled: true, enabled: false });
  assert.equal((await corrupt('Off')).status, 'corrupted');
  assert.equal(h.repairer.calls.length, 0);
});

test('retryable answers back off and retry up to max_repair_retries, then give up', async () => {
  h = await healthHarness({ auto_repair_enabled: true, max_repair_retries: 2 });
  h.repairer.outcomes = [
    { kind: 'retryable', reason: 'Radarr answered 503' },
    { kind: 'retryable', reason: 'Radarr answered 503' },
  ];
  const r = await corrupt('Flaky');
  assert.equal(r.status, 'corrupted');
  assert.equal(r.repairRetryCount, 1);
  assert.match(r.lastError ?? '', /will retry.*503/);
  await h.clock.advance(10 * 60_000);
  await h.drain();
  assert.equal(h.repairer.calls.length, 1, 'not before the back-off');
  await h.clock.advance(6 * 60_000);
  await h.drain();
  assert.equal(h.repairer.calls.length, 2);
  const after = await h.health.service.byId(r.id);
  assert.equal(after.repairRetryCount, 2);
  assert.equal(after.repairNextAt, null, 'no further attempt planned');
  assert.ok(h.logs.some((l) => l.includes('"outcome":"retryable"')));
  await h.clock.advance(24 * 3_600_000);
  await h.drain();
  assert.equal(h.repairer.calls.length, 2, 'no more than max_repair_retries');
});

test('manual repair of a file no arr manages answers NOT_FOUND', async () => {
  h = await healthHarness();
  const r = await corrupt('Orphan');
  h.repairer.outcomes = [{ kind: 'not_found' }];
  await assert.rejects(h.health.service.repair(r.id, false), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'NOT_FOUND');
    assert.match(err.message, /not managed by any configured Radarr or Sonarr/);
    return true;
  });
  const triggered = await h.health.service.repair(r.id, true);
  assert.equal(triggered.status, 'repair_triggered');
});

test('the breaker: when most checked files turn bad at once, repairs stop and the worker says why', async () => {
  h = await healthHarness({ auto_repair_enabled: true, repair_breaker_percent: 30, max_concurrent_jobs: 4 });
  for (let i = 0; i < 12; i++) await h.addFile(`Wave${i}`, 10);
  for (let i = 0; i < 12; i++) h.articles.missing.add(`Wave${i}-0`);
  for (let i = 0; i < 12; i++) await h.health.service.check(`/complete/movies/Wave${i}/Wave${i}.mkv`, undefined, false);
  await h.drain();
  const w = await h.health.service.workerStatus();
  assert.equal(w.repair_paused, true);
  assert.match(w.repair_paused_reason ?? '', /repairs paused/);
  // The first files were repaired before the window held enough checks to judge; then it stopped.
  assert.ok(h.repairer.calls.length <= 10, `${h.repairer.calls.length} repairs`);
  const corrupted = { limit: 0, offset: 0, sortBy: 'created_at', sortOrder: 'asc', status: 'corrupted' } as const;
  assert.ok((await h.health.service.list(corrupted)).total >= 2);
});

test('each repair is announced: requested, then done when the arr took it or failed with the reason', async () => {
  h = await healthHarness({ auto_repair_enabled: true, max_repair_retries: 2 });
  const said: string[] = [];
  for (const name of ['repair.requested', 'repair.done', 'repair.failed'] as const)
    h.events.on(name, (e) => said.push(`${name} ${e.path} ${e.reason ?? '-'} ${e.will_retry}`));
  await corrupt('Fixed');
  h.repairer.outcomes = [{ kind: 'retryable', reason: 'Radarr answered 503' }];
  await corrupt('Flaky');
  assert.deepEqual(said, [
    'repair.requested /complete/movies/Fixed/Fixed.mkv - false',
    'repair.done /complete/movies/Fixed/Fixed.mkv - false',
    'repair.requested /complete/movies/Flaky/Flaky.mkv - false',
    'repair.failed /complete/movies/Flaky/Flaky.mkv Radarr answered 503 true',
  ]);
});

test('a repair is kept due before the arr is asked (a restart that cuts it short tries again); urgent ones go first', async () => {
  h = await healthHarness({ auto_repair_enabled: true });
  const seen: (number | null)[] = [];
  const ask = h.repairer.repairFile.bind(h.repairer);
  h.repairer.repairFile = async (input) => {
    seen.push((await h.healthStore.byPath(input.path))?.repairNextAt ?? null);
    return ask(input);
  };
  await corrupt('Cut');
  assert.equal(seen.length, 1);
  assert.ok(seen[0] !== null, 'due again in the store while the arr is being asked');

  // Two repairs due after a restart: the urgent one (a viewer's read found it) first, whatever their place in line.
  const a = await corrupt('Early');
  const b = await corrupt('Urgent');
  const now = h.clock.now();
  await h.healthStore.update(a.id, (r) => ({
    ...r,
    status: 'corrupted',
    repairNextAt: now - 2000,
    repairUrgent: false,
  }));
  await h.healthStore.update(b.id, (r) => ({
    ...r,
    status: 'corrupted',
    repairNextAt: now - 1000,
    repairUrgent: true,
  }));
  h.repairer.calls.length = 0;
  await h.repairs.loop.runDue();
  assert.deepEqual(
    h.repairer.calls.map((c) => c.path),
    [b.path, a.path],
  );
});
