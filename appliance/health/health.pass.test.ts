import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS } from '../config/defaults.js';
import { backlogHours, estimatePass, statsPerCheck, type PassSettings } from './health.pass.js';
import { recheckDelayMs, tierOf, type AgeTiers } from './health.schedule.js';

const DAY = 24 * 3600_000;
const h = DEFAULTS.health;
const tiers: AgeTiers = {
  newMaxAgeDays: h.tier_new_max_age_days,
  newIntervalHours: h.tier_new_interval_hours,
  recentMaxAgeDays: h.tier_recent_max_age_days,
  recentIntervalHours: h.tier_recent_interval_hours,
  oldIntervalHours: h.tier_old_interval_hours,
};
const defaults: PassSettings = {
  checkAll: h.check_all_segments,
  samplePercent: h.segment_sample_percentage,
  statBudgetPerHour: h.stat_budget_per_hour,
  bodyBudgetPerHour: h.body_budget_per_hour,
  tiers,
};

test('tiers: new files daily, recent ones weekly, old ones monthly (the defaults)', () => {
  assert.deepEqual(
    [0, 6.9, 7, 89, 90, 400].map((d) => tierOf(d * DAY, tiers)),
    [0, 0, 1, 1, 2, 2],
  );
  assert.deepEqual(
    [1, 30, 365].map((d) => recheckDelayMs(d * DAY, tiers) / 3600_000),
    [24, 168, 720],
  );
});

test('a check STATs its sample, both ends and the spot-checks; every article with check_all_segments', () => {
  assert.equal(statsPerCheck(5000, { checkAll: false, samplePercent: 5 }), 250 + 2 + 3);
  assert.equal(statsPerCheck(4, { checkAll: false, samplePercent: 5 }), 4, 'never more than the file has');
  assert.equal(statsPerCheck(5000, { checkAll: true, samplePercent: 5 }), 5000);
  assert.equal(statsPerCheck(0, { checkAll: false, samplePercent: 5 }), 0);
});

test('at 100,000 files of 5,000 articles the default budget keeps up: one full pass in 255 hours', () => {
  // All old (a settled library): 25.5 M STATs at 100,000 an hour; 300,000 BODYs at 1,200 an hour take 250 h.
  const settled = estimatePass({ tierFiles: [0, 0, 100_000], articlesPerFile: 5000 }, defaults);
  assert.equal(settled.statsPerPass, 25_500_000);
  assert.equal(settled.bodiesPerPass, 300_000);
  assert.equal(settled.fullPassHours, 255);
  assert.equal(Math.round(settled.statDemandPerHour), 35_417, '100,000 x 255 / 720 h');
  assert.equal(settled.keepsUp, true);
  // A growing library: 2% new, 8% recent.
  const growing = estimatePass({ tierFiles: [2000, 8000, 90_000], articlesPerFile: 5000 }, defaults);
  assert.equal(Math.round(growing.statDemandPerHour), 65_268);
  assert.equal(Math.round(growing.bodyDemandPerHour), 768);
  assert.equal(growing.keepsUp, true);
  // Every article of every file is 500 M STATs: 5,000 hours at the default budget, more than a month.
  const full = estimatePass({ tierFiles: [0, 0, 100_000], articlesPerFile: 5000 }, { ...defaults, checkAll: true });
  assert.equal(full.fullPassHours, 5000);
  assert.equal(full.keepsUp, false);
  // A budget too small for the new files' daily checks falls behind.
  const starved = estimatePass(
    { tierFiles: [20_000, 0, 80_000], articlesPerFile: 5000 },
    { ...defaults, statBudgetPerHour: 100_000 },
  );
  assert.equal(starved.keepsUp, false, `${Math.round(starved.statDemandPerHour)} STATs an hour asked`);
});

test('the backlog at the budget: the slower bucket decides', () => {
  assert.equal(backlogHours(1000, 5000, defaults), 2.55);
  assert.equal(backlogHours(1000, 5000, { ...defaults, bodyBudgetPerHour: 300 }), 10);
  assert.equal(backlogHours(0, 5000, defaults), 0);
});
