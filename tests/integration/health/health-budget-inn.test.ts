import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import type { HealthScheduleJson, HealthStatsJson } from '../../../appliance/health/health.wire.js';
import type { PoolMetrics } from '../../../appliance/nntp/pool.wire.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import type { TestServer } from '../../support/server.js';
import { api, startImportServer } from '../import/support.js';
import { importPosted } from './support.js';
import { film } from '../../support/media/film.js';

// The STAT budget over the real pool and INN: three files of 40 articles, every article STATed per check (120 in
// all), at 100 STATs an hour. The pool's command counter (every STAT and BODY sent to INN) shows an hour of clock
// carries two checks and not the third; the third waits for the next hour's tokens.

const HOUR = 3600_000;
const clock = new ManualClock();
let inn: InnServer;
let srv: TestServer;
// The importer runs on the same clock: it follows real time in small steps until the test takes it over.
let follower: NodeJS.Timeout | undefined;
let following = false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

before(async () => {
  follower = setInterval(() => {
    if (following) return;
    following = true;
    void clock.advance(25).finally(() => (following = false));
  }, 25);
  inn = await ensureInn();
  srv = await startImportServer(
    inn,
    {
      health: {
        enabled: true,
        check_interval_seconds: 600,
        check_all_segments: true,
        stat_budget_per_hour: 100,
        body_budget_per_hour: 10_000,
      },
    },
    { clock },
  );
});

after(async () => {
  clearInterval(follower);
  await srv?.stop();
});

const get = async <T>(path: string): Promise<T> => (await api<T>(srv.baseUrl, path)).body.data!;
const commands = async () =>
  (await get<PoolMetrics>('/api/system/pool/metrics')).providers.reduce((n, p) => n + p.commands, 0);

/** Moves the clock `ms` in steps of `step`, letting the checks' requests to INN finish between steps. */
async function walk(ms: number, step = 36_000): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await clock.advance(step);
    await sleep(40);
  }
}

test('scheduled checks over INN send no more STATs than the budget holds; the rest wait for the next hour', async () => {
  for (const name of ['Budget.A.mkv', 'Budget.B.mkv', 'Budget.C.mkv'])
    await importPosted(srv.baseUrl, inn, name, film(40 * 2_000), 2_000);
  // From here the test moves the clock: no check has run yet (the first is due 10 minutes after the import).
  clearInterval(follower);
  while (following) await sleep(5);
  await sleep(200);
  const before = await commands();
  await walk(10 * 60_000 + HOUR);
  await sleep(500);
  const sent = (await commands()) - before;
  const stats = await get<HealthStatsJson>('/api/health/stats');
  // Two checks: 2 x (40 STATs + 3 BODYs); the third took the hour's last tokens and waits for 20 more.
  assert.equal(stats.healthy, 2, `two files checked in the hour (${JSON.stringify(stats)})`);
  assert.ok(sent <= 100 + 1 + 2 * 3, `at most the hour's STATs and the first bucketful, plus 6 BODYs (${sent})`);
  assert.ok(sent >= 2 * 43, `both checks went out (${sent})`);
  const schedule = await get<HealthScheduleJson>('/api/health/schedule');
  assert.equal(schedule.held_by, 'budget');
  assert.equal(schedule.articles_per_file, 40);
  assert.equal(schedule.stats_per_pass, 120);
  assert.equal(schedule.full_pass_hours, 1.2, '120 STATs at 100 an hour');
  await walk(HOUR);
  await sleep(500);
  assert.equal((await get<HealthStatsJson>('/api/health/stats')).healthy, 3, 'the third in the next hour');
});
