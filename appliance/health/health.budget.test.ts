import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { spender, TokenBucket, healthBudget } from './health.budget.js';

const HOUR = 3600_000;
const never = new AbortController().signal;

test('a bucket holds a minute of its hourly budget, refills over the hour, and over-budget work waits', async () => {
  const clock = new ManualClock(0);
  let perHour = 6000;
  const bucket = new TokenBucket(clock, () => perHour);
  assert.equal(bucket.capacity, 100, 'a minute of 6,000 an hour');
  assert.equal(bucket.level(), 100, 'starts full');
  await bucket.take(100, never);
  assert.equal(bucket.level(), 0);
  assert.equal(bucket.waitMs(50), 30_000, '50 tokens at 100 a minute');
  let done = false;
  void bucket.take(50, never).then(() => (done = true));
  await clock.advance(29_000);
  assert.equal(done, false, 'waits for its tokens');
  await clock.advance(1_000);
  assert.equal(done, true);
  // Over a whole hour, a greedy taker gets the hour's budget and the one bucketful it started with, no more.
  let taken = 0;
  const greedy = (async () => {
    for (;;) {
      await bucket.take(10, never);
      taken += 10;
      if (clock.now() >= 30_000 + HOUR) return;
    }
  })();
  await clock.advance(HOUR);
  await greedy;
  assert.ok(taken <= 6000 + 100, `at most the budget plus one bucketful (${taken})`);
  assert.ok(taken >= 6000 - 100, `and it gets the budget (${taken})`);
  // A saved setting applies at once.
  perHour = 60_000;
  assert.equal(bucket.capacity, 1000);
});

test('more than a bucketful is taken a bucketful at a time; a charge runs at once and the debt delays what follows', async () => {
  const clock = new ManualClock(0);
  const bucket = new TokenBucket(clock, () => 600); // 10 a minute
  let done = false;
  void bucket.take(35, never).then(() => (done = true));
  await clock.advance(2 * 60_000);
  assert.equal(done, false, '35 tokens need 3.5 minutes from a full bucket of 10');
  await clock.advance(30_000);
  assert.equal(done, true);
  bucket.charge(20);
  assert.equal(bucket.level(), -20, 'a manual check is charged, not held');
  assert.equal(bucket.waitMs(1), 126_000, 'the next waits for the debt to be paid');
});

test('a scheduled check spends its reservation, then waits; what it did not spend goes back; a manual one is charged', async () => {
  const clock = new ManualClock(0);
  const budget = healthBudget(clock, () => ({ stat: 600, body: 60 }));
  assert.equal(budget.stat.tryTake(8), true, 'reserved when admitted');
  assert.equal(budget.stat.tryTake(8), false, 'not twice: 2 left');
  const s = spender(budget, { stat: 8, body: 0 });
  await s.stat(6, never);
  assert.equal(budget.stat.level(), 2, 'paid from the reservation');
  s.close();
  assert.equal(budget.stat.level(), 4, 'the 2 it did not spend came back');
  const abort = new AbortController();
  const waiting = spender(budget, { stat: 0, body: 0 }).stat(5, abort.signal);
  await clock.advance(1000);
  assert.equal(budget.stat.waiting, 1, 'over budget: it waits');
  abort.abort(new Error('Check cancelled'));
  await assert.rejects(waiting, /Check cancelled/);
  await spender(budget).body(3, never);
  assert.equal(budget.body.level(), -2, 'BODY is its own bucket: 1 a minute, charged 3');
});
