import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { sampledShare } from './sample-share.js';
import { StatBudget } from './stat-budget.js';

const HOUR = 3_600_000;

test('the STAT budget grants at most one hour in a burst, then refills at its rate on the injected clock', async () => {
  const clock = new ManualClock(0);
  const budget = new StatBudget(120, clock);
  assert.equal(budget.take(500), 120);
  assert.equal(budget.take(1), 0);
  assert.equal(budget.msUntilNext(), 30_000);
  await clock.advance(30_000);
  assert.equal(budget.take(5), 1);
  await clock.advance(10 * HOUR); // never more than one hour's worth held
  assert.equal(budget.take(1_000), 120);
});

test('over any span the STATs granted stay within rate * (hours + 1)', async () => {
  const clock = new ManualClock(0);
  const budget = new StatBudget(60, clock);
  let granted = 0;
  for (let step = 0; step < 600; step++) {
    granted += budget.take(7);
    await clock.advance(17_000);
  }
  const hours = (600 * 17_000) / HOUR;
  assert.ok(granted <= 60 * (hours + 1), `${granted} granted in ${hours} h`);
  assert.ok(granted >= 60 * hours - 1, `the budget is spent, not starved: ${granted}`);
});

test('bad budgets and samples are refused', () => {
  assert.throws(() => new StatBudget(0, new ManualClock(0)), /perHour/);
  assert.throws(() => new StatBudget(1.5, new ManualClock(0)), /perHour/);
  assert.throws(() => sampledShare(3, 2), /not a sample/);
});

test('the sampled share and its 95% Wilson interval', () => {
  assert.deepEqual(sampledShare(0, 0), { n: 0, hits: 0, share: null, interval: null });
  const s = sampledShare(30, 100);
  assert.equal(s.share, 0.3);
  assert.ok(Math.abs(s.interval![0] - 0.2189) < 1e-3 && Math.abs(s.interval![1] - 0.3958) < 1e-3, String(s.interval));
  const all = sampledShare(20, 20);
  assert.equal(all.interval![1], 1);
  assert.ok(all.interval![0] > 0.83 && all.interval![0] < 0.84, String(all.interval));
});
