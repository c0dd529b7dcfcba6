import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { healthHarness, type HealthHarness } from '../../tests/support/health/harness.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
let h: HealthHarness;
afterEach(async () => h?.close());

/** Moves the clock a day at a time, letting each day's checks finish (they write to LMDB in real time). */
async function days(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await h.clock.advance(DAY);
    await h.drain();
  }
}

/**
 * Moves the clock `ms` a minute at a time; after each minute, waits (real time, bounded) until every running
 * check is either done or waiting on the budget's clock.
 */
async function minutes(ms: number): Promise<void> {
  const { stat, body } = h.health.budget;
  for (let t = 0; t < ms; t += 60_000) {
    await h.clock.advance(60_000);
    await h.until(() => h.health.runner.activeChecks === stat.waiting + body.waiting);
  }
}

/** Scheduled checks per record id, as the runner announces them. */
function countChecks(harness: HealthHarness): Map<number, number> {
  const checks = new Map<number, number>();
  harness.events.on('health.check.done', (e) => checks.set(e.record_id, (checks.get(e.record_id) ?? 0) + 1));
  return checks;
}

test('a new file is checked per its tier, daily then weekly; an old one monthly; due files go new tier first', async () => {
  h = await healthHarness({ check_interval_seconds: 86_400 });
  const fresh = await h.addFile('New', 20);
  const old = await h.addFile('Old', 20);
  // The old file entered the tree 200 days ago.
  const o = await h.healthStore.byPath(old);
  await h.healthStore.update(o!.id, (r) => ({ ...r, fileCreatedAt: r.fileCreatedAt - 200 * DAY }));
  // The new one an hour before the clock's start (the tree stamps files with the real time).
  const n = (await h.healthStore.update((await h.healthStore.byPath(fresh))!.id, (r) => ({
    ...r,
    fileCreatedAt: h.clock.now() - HOUR,
  })))!;
  const checks = countChecks(h);
  await days(1);
  assert.equal(checks.get(n.id), 1, 'first check of each a day after they were added (check_interval_seconds)');
  assert.equal(checks.get(o!.id), 1);
  assert.equal((await h.healthStore.byPath(old))!.tier, 2, 'scheduled in the old tier');
  const later = (await h.healthStore.byPath(old))!;
  assert.equal(later.nextCheckAt! - later.lastCheckedAt!, 720 * HOUR, '30 days on');
  await days(6);
  assert.equal(checks.get(n.id), 7, 'daily while younger than 7 days');
  assert.equal(checks.get(o!.id), 1, 'the old one not again');
  await days(23);
  assert.equal(checks.get(n.id), 7 + 3, 'then weekly (recent tier)');
  assert.equal(checks.get(o!.id), 1);
  await days(2);
  assert.equal(checks.get(o!.id), 2, 'the old file once a month');
  // Both due at once: the new tier goes first, whatever its due time.
  await h.healthStore.update(n.id, (r) => ({ ...r, nextCheckAt: h.clock.now() - 1000, tier: 1 }));
  await h.healthStore.update(o!.id, (r) => ({ ...r, nextCheckAt: h.clock.now() - 5000, tier: 2 }));
  assert.deepEqual(
    (await h.healthStore.due(h.clock.now(), 2)).map((r) => r.id),
    [n.id, o!.id],
  );
});

test('scheduled checks never send more STATs than the budget; the bucket refills per hour; manual checks are charged', async () => {
  // 100 STATs an hour (the least allowed): a check of a 20-article file STATs 1 + 2 + 3 = 6 articles.
  h = await healthHarness({ stat_budget_per_hour: 100, body_budget_per_hour: 1000, max_concurrent_jobs: 3 });
  const paths: string[] = [];
  for (let i = 0; i < 40; i++) paths.push(await h.addFile(`F${i}`, 20));
  const stats = () => h.articles.requests.filter((r) => r.kind === 'stat').length;
  await minutes(HOUR);
  const firstHour = stats();
  assert.ok(firstHour <= 100 + 1, `at most the hour's budget and the one token the bucket starts with (${firstHour})`);
  assert.ok(firstHour >= 100 - 12, `and the budget is spent (${firstHour})`);
  const figures = await h.health.schedule();
  assert.ok(figures.backlog_files > 10, `files wait for the budget (${figures.backlog_files})`);
  assert.equal(figures.held_by, 'budget');
  await minutes(HOUR);
  assert.ok(stats() <= 200 + 1, `two hours: twice the budget and one token at most (${stats()})`);
  assert.ok(stats() - firstHour >= 100 - 12, `refilled per hour (${stats() - firstHour})`);
  // A person's check runs at once, over budget: it is charged, and the scheduled ones pay its debt.
  const unchecked = (await Promise.all(paths.map((p) => h.health.service.byPath(p)))).find(
    (r) => !r.lastCheckedAt && r.status !== 'checking',
  )!;
  const before = stats();
  await h.health.service.check(unchecked.path, undefined, true);
  await h.clock.advance(0);
  await h.until(async () => (await h.health.service.byId(unchecked.id)).lastCheckedAt !== null);
  assert.ok(stats() - before >= 4, 'the manual check sent its STATs without the clock moving');
  assert.ok(h.health.budget.stat.level() < 0, 'and was charged: the bucket is in debt');
  // A bigger budget applies at once.
  await h.config.patchSection('health', { stat_budget_per_hour: 100_000 });
  await minutes(10 * 60_000);
  await h.drain();
  assert.equal((await h.health.schedule()).backlog_files, 0, 'the backlog is gone at the bigger budget');
});

test('scheduled checks yield to playback: none start while a player waits on the pool, one at a time while it plays', async () => {
  let load: 'idle' | 'streaming' | 'busy' = 'busy';
  h = await healthHarness({ max_concurrent_jobs: 4 }, { playback: () => load });
  for (let i = 0; i < 4; i++) await h.addFile(`P${i}`, 20);
  await h.clock.advance(120_000);
  await h.drain();
  assert.equal(h.articles.requests.length, 0, 'nothing while stream requests wait');
  assert.equal((await h.health.schedule()).held_by, 'playback');
  load = 'streaming';
  let most = 0;
  h.events.on('health.record.changed', () => (most = Math.max(most, h.health.runner.activeChecks)));
  await h.clock.advance(120_000);
  await h.drain();
  assert.equal((await h.health.service.stats()).healthy, 4, 'all checked while a player reads and the pool keeps up');
  assert.equal(most, 1, 'one at a time');
});

test('the schedule figures: share verified in the window, backlog, budget, full pass', async () => {
  h = await healthHarness({ verified_window_days: 10 });
  const a = await h.addFile('A', 100);
  await h.addFile('B', 100);
  let f = await h.health.schedule();
  assert.equal(f.total_files, 2);
  assert.equal(f.verified_files, 0);
  assert.equal(f.backlog_files, 0, 'not due yet');
  await h.health.service.check(a, undefined, false);
  await h.drain();
  f = await h.health.schedule();
  assert.deepEqual([f.verified_files, f.verified_percent, f.window_days, f.articles_per_file], [1, 50, 10, 100]);
  assert.deepEqual(
    f.tiers.map((t) => [t.name, t.files]),
    [
      ['new', 2],
      ['recent', 0],
      ['old', 0],
    ],
  );
  // 2 files of 100 articles: 5 + 2 + 3 STATs each; 3 BODYs each at 1,200 an hour.
  assert.equal(f.stats_per_pass, 20);
  assert.equal(f.bodies_per_pass, 6);
  assert.equal(f.stat_budget_per_hour, 100_000);
  assert.equal(f.keeps_up, true);
  await h.clock.advance(11 * 86_400_000);
  await h.drain();
  f = await h.health.schedule();
  assert.equal(f.verified_files, 2, 'both checked again within the last 10 days (daily, new tier)');
});
