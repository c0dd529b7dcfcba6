import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { healthHarness, type HealthHarness } from '../../tests/support/health/harness.js';
import { layoutFingerprint } from '../layout/index.js';

let h: HealthHarness;
afterEach(() => h?.close());

async function corrupt(name: string) {
  const path = await h.addFile(name, 10);
  h.articles.missing.add(`${name}-0`);
  const r = await h.health.service.check(path, undefined, true);
  await h.drain();
  return await h.health.service.byId(r.id);
}

const code = (expected: string) => (err: Error & { code?: string }) => {
  assert.equal(err.code, expected);
  return true;
};

test('per file: at most 3 arr repairs in 6 hours; the fourth waits until the first is 6 hours old', async () => {
  h = await healthHarness({ auto_repair_enabled: true, max_repair_retries: 10 });
  const r = await corrupt('Looping');
  assert.equal(h.repairer.calls.length, 1);
  await h.clock.advance(60 * 60_000);
  await h.health.service.repair(r.id, false);
  await h.health.service.repair(r.id, false);
  assert.equal(h.repairer.calls.length, 3);
  await assert.rejects(h.health.service.repair(r.id, false), code('REPAIR_HELD'));
  assert.equal(h.repairer.calls.length, 3, 'the arr was not asked a fourth time');
  const held = await h.health.service.byId(r.id);
  assert.match(held.lastError ?? '', /had 3 arr repairs in the last 6 h/);
  assert.equal(held.repairNextAt, held.arrRepairsAt![0]! + 6 * 3600_000);
  // When the first repair is 6 h old, the held one runs by itself.
  await h.clock.advance(5 * 3600_000 - 1000);
  await h.drain();
  assert.equal(h.repairer.calls.length, 3);
  await h.clock.advance(1000);
  await h.until(() => h.repairer.calls.length === 4);
});

test('the brake holds every arr repair, automatic and asked for, until an admin resumes; then they run', async () => {
  h = await healthHarness({ auto_repair_enabled: true, repair_breaker_percent: 30, max_concurrent_jobs: 4 });
  const held: string[] = [];
  h.events.on('repair.held', (e) => held.push(e.path));
  for (let i = 0; i < 12; i++) await h.addFile(`Wave${i}`, 10);
  for (let i = 0; i < 12; i++) h.articles.missing.add(`Wave${i}-0`);
  for (let i = 0; i < 12; i++) await h.health.service.check(`/complete/movies/Wave${i}/Wave${i}.mkv`, undefined, false);
  await h.drain();
  assert.equal(h.repairs.control.brake().engaged, true);
  const before = h.repairer.calls.length;
  assert.ok(before <= 10, `${before} repairs before the window held enough checks`);
  assert.ok(held.length >= 2, 'the files after the engagement were held');
  // Hours pass: held repairs come due again and again, and stay held; a person asking is told why.
  for (let i = 0; i < 8; i++) await h.clock.advance(15 * 60_000 + 1);
  await h.drain();
  assert.equal(h.repairer.calls.length, before, 'no arr was asked anything while the brake holds');
  const one = (await h.healthStore.byPath(held[0]!))!;
  await assert.rejects(h.health.service.repair(one.id, false), code('REPAIR_HELD'));
  assert.equal(held.filter((p) => p === held[0]).length, 1, 'a held file is announced once, not every 15 min');
  const after = await h.repairs.control.resume('admin');
  assert.equal(after.engaged, false);
  assert.equal(after.released_by, 'admin');
  await h.clock.advance(0); // the resume woke the worker: its cycle runs the held repairs
  await h.until(async () => h.repairer.calls.length === before + new Set(held).size);
  assert.equal((await h.healthStore.byPath(held[0]!))!.status, 'repair_triggered');
});

test('a corrupted verdict remembers the release by its fingerprint; a healthy or partial one does not', async () => {
  h = await healthHarness({ auto_repair_enabled: false });
  const good = await h.addFile('Fine', 10);
  await h.health.service.check(good, undefined, true);
  await corrupt('Fake');
  const fp = (name: string) =>
    layoutFingerprint({ segments: Array.from({ length: 10 }, (_, i) => ({ messageId: `${name}-${i}` })) });
  const known = await h.repairs.control.brokenRelease(fp('Fake'));
  assert.equal(known?.path, '/complete/movies/Fake/Fake.mkv');
  assert.match(known?.reason ?? '', /1 missing of 10 articles/);
  assert.equal(await h.repairs.control.brokenRelease(fp('Fine')), undefined);
});

test('a fingerprint is the sorted message-ids: the order an NZB lists them in does not matter, a repost does', () => {
  const seg = (messageId: string) => ({ messageId, start: 0, end: 1 });
  const a = layoutFingerprint({ segments: [seg('b@x'), seg('a@x'), seg('c@x')] });
  assert.equal(a, layoutFingerprint({ segments: [seg('c@x'), seg('a@x'), seg('b@x'), seg('a@x')] }));
  assert.notEqual(a, layoutFingerprint({ segments: [seg('b@x'), seg('a@x'), seg('d@x')] }));
  assert.match(a, /^[0-9a-f]{64}$/);
});

test('with repair_delay_minutes a wave engages the brake before any arr is asked; one bad file waits, then is repaired', async () => {
  h = await healthHarness({ auto_repair_enabled: true, repair_delay_minutes: 30, max_concurrent_jobs: 4 });
  const lone = await corrupt('Lone');
  assert.equal(lone.status, 'corrupted');
  assert.equal(h.repairer.calls.length, 0, 'not at once');
  assert.equal(lone.repairNextAt, h.clock.now() + 30 * 60_000);
  await h.clock.advance(30 * 60_000);
  // On PostgreSQL the cycle that armed the runner's next wake may still be reading the store when the clock moved:
  // it then arms a timer due now, which only a move of the clock runs (a ManualClock), so each look moves it by 0.
  await h.until(async () => {
    await h.clock.advance(0);
    return h.repairer.calls.length === 1;
  });

  for (let i = 0; i < 12; i++) await h.addFile(`Gone${i}`, 10);
  for (let i = 0; i < 12; i++) h.articles.missing.add(`Gone${i}-0`);
  for (let i = 0; i < 12; i++) await h.health.service.check(`/complete/movies/Gone${i}/Gone${i}.mkv`, undefined, false);
  await h.drain();
  assert.equal(h.repairs.control.brake().engaged, true);
  await h.clock.advance(31 * 60_000);
  await h.drain();
  assert.equal(h.repairer.calls.length, 1, 'no file of the wave went to an arr');
});
