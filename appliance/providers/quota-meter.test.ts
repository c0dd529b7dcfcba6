/**
 * Quotas and expiry (docs/nntp.md "Quotas and expiry"; issue 33 item 2): the period's window, the notices at 80, 95
 * and 100% sent once per threshold and period (also after a restart), the pause at 100% lifted at the reset, a
 * lifetime quota counted on from its "already used" figure, and the expiry notice 7 days ahead.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import type { ProviderExpiryEvent, ProviderQuotaEvent } from '../events/index.js';
import { createLogger } from '../logging/logger.js';
import { openStore } from '../store/index.js';
import { QuotaMeter, type QuotaSettings } from './quota-meter.js';
import { daysUntil, quotaWindow } from './quota-period.js';
import { LmdbQuotaStateStore } from './quota.store.js';

const dir = mkdtempSync(join(tmpdir(), 'spool-quota-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();

test('the window of each period, in the local calendar', () => {
  const wed = at(2026, 11, 25, 15); // a Wednesday
  assert.deepEqual(quotaWindow('daily', 1, wed), { start: '2026-11-25', resetsAt: at(2026, 11, 26, 0) });
  assert.deepEqual(quotaWindow('weekly', 1, wed), { start: '2026-11-23', resetsAt: at(2026, 11, 30, 0) });
  assert.deepEqual(quotaWindow('weekly', 5, wed), { start: '2026-11-20', resetsAt: at(2026, 11, 27, 0) });
  assert.deepEqual(quotaWindow('weekly', 3, wed), { start: '2026-11-25', resetsAt: at(2026, 12, 2, 0) });
  assert.deepEqual(quotaWindow('monthly', 1, wed), { start: '2026-11-01', resetsAt: at(2026, 12, 1, 0) });
  assert.deepEqual(quotaWindow('monthly', 28, wed), { start: '2026-10-28', resetsAt: at(2026, 11, 28, 0) });
  // The 31st in a 30-day month is its last day; in February, the 28th.
  assert.deepEqual(quotaWindow('monthly', 31, at(2026, 11, 30)), {
    start: '2026-11-30',
    resetsAt: at(2026, 12, 31, 0),
  });
  assert.deepEqual(quotaWindow('monthly', 31, at(2027, 2, 10)), { start: '2027-01-31', resetsAt: at(2027, 2, 28, 0) });
  assert.deepEqual(quotaWindow('lifetime', 1, wed), { start: null, resetsAt: null });
  assert.equal(daysUntil('2026-12-02', wed), 7);
  assert.equal(daysUntil('2026-11-24', wed), -1);
});

function rig(name: string, settings: QuotaSettings[], clock: ManualClock) {
  const days: Array<{ day: string; providerId: string; bytes: number }> = [];
  const store = openStore({ rootPath: join(dir, name) });
  const quota: ProviderQuotaEvent[] = [];
  const expiry: ProviderExpiryEvent[] = [];
  const paused = new Map<string, number | null>();
  const make = () =>
    new QuotaMeter({
      settings: () => settings,
      sample: () => undefined,
      days: () => days,
      store: new LmdbQuotaStateStore(store),
      pause: (id, until) => (until === undefined ? paused.delete(id) : paused.set(id, until)),
      events: {
        emit: (name: string, e: ProviderQuotaEvent | ProviderExpiryEvent) =>
          name === 'provider.quota.changed'
            ? quota.push(e as ProviderQuotaEvent)
            : expiry.push(e as ProviderExpiryEvent),
      },
      clock,
      logger: createLogger('quota-test', 'error'),
      everyMs: 6 * 3_600_000,
    });
  return { days, store, quota, expiry, paused, make };
}

const provider = (over: Partial<QuotaSettings>): QuotaSettings => ({
  id: 'p',
  host: 'news.example.com',
  quota_period: 'daily',
  quota_bytes: 1000,
  quota_reset_day: 1,
  quota_used_bytes: 0,
  expires_on: null,
  ...over,
});

test('80, 95 and 100% are told once each per period; 100% pauses until the period resets, even after a restart', async () => {
  const clock = new ManualClock(at(2026, 11, 25, 10));
  const r = rig('thresholds', [provider({})], clock);
  const meter = r.make();
  await meter.start();
  r.days.push({ day: '2026-11-25', providerId: 'p', bytes: 600 });
  meter.command('p', 100); // 70%: below the first threshold, no evaluation
  await meter.evaluate();
  assert.equal(r.quota.length, 0);
  r.days[0]!.bytes = 850;
  await meter.evaluate();
  assert.deepEqual(
    r.quota.map((e) => e.threshold),
    [80],
  );
  await meter.evaluate();
  assert.deepEqual(
    r.quota.map((e) => e.threshold),
    [80],
    'told once',
  );
  r.days[0]!.bytes = 1000;
  await meter.evaluate();
  assert.deepEqual(
    r.quota.map((e) => e.threshold),
    [80, 100],
    'a jump past 95 and 100 is one notice',
  );
  assert.equal(r.paused.get('p'), at(2026, 11, 26, 0), 'paused until local midnight');
  assert.equal(meter.view()[0]!.paused, true);
  assert.equal(meter.view()[0]!.used_percent, 100);
  meter.close();

  // A restart: still paused (the bytes are stored), and nothing is told again.
  r.paused.clear();
  const again = r.make();
  await again.start();
  assert.equal(r.paused.has('p'), true);
  assert.equal(r.quota.length, 2);

  // Midnight: a new period, the pause lifted (told), and its thresholds told anew.
  await clock.advance(at(2026, 11, 26, 0) - clock.now() + 1000);
  await again.evaluate(); // the evaluation at the reset may still await its storage
  assert.equal(r.paused.has('p'), false);
  assert.deepEqual(r.quota.at(-1)?.threshold, null);
  r.days.push({ day: '2026-11-26', providerId: 'p', bytes: 810 });
  await again.evaluate();
  assert.deepEqual(r.quota.at(-1)?.threshold, 80);
  again.close();
  await r.store.close();
});

test('bytes read between samples count at once: crossing 100% mid-stream evaluates and pauses', async () => {
  const clock = new ManualClock(at(2026, 11, 25, 10));
  const r = rig('live', [provider({})], clock);
  let unsampled = 0;
  const meter = new QuotaMeter({
    ...{ settings: () => [provider({})], days: () => r.days, store: new LmdbQuotaStateStore(r.store) },
    sample: () => {
      r.days.push({ day: '2026-11-25', providerId: 'p', bytes: unsampled });
      unsampled = 0;
    },
    pause: (id, until) => (until === undefined ? r.paused.delete(id) : r.paused.set(id, until)),
    events: { emit: (_: string, e: unknown) => void r.quota.push(e as ProviderQuotaEvent) },
    clock,
    logger: createLogger('quota-test', 'error'),
  });
  await meter.start();
  const paused = new Promise<void>((resolve) => {
    const poll = () => (r.paused.has('p') ? resolve() : setImmediate(poll));
    poll();
  });
  for (let i = 0; i < 11; i++) {
    unsampled += 100;
    meter.command('p', 100);
  }
  await paused;
  assert.equal(meter.view()[0]!.used_bytes, 1100);
  meter.close();
  await r.store.close();
});

test('a lifetime quota counts on from its "already used" figure; changing the figure starts again from it', async () => {
  const clock = new ManualClock(at(2026, 11, 25, 10));
  const settings = [provider({ quota_period: 'lifetime', quota_bytes: 10_000, quota_used_bytes: 7000 })];
  const r = rig('lifetime', settings, clock);
  r.days.push({ day: '2026-01-01', providerId: 'p', bytes: 5000 }); // read before the quota was set: not counted
  const meter = r.make();
  await meter.start();
  assert.equal(meter.view()[0]!.used_bytes, 7000);
  r.days.push({ day: '2026-11-25', providerId: 'p', bytes: 1200 });
  await meter.evaluate();
  assert.deepEqual([meter.view()[0]!.used_bytes, r.quota.map((e) => e.threshold)], [8200, [80]]);
  assert.equal(meter.view()[0]!.resets_at, null);
  settings[0] = { ...settings[0]!, quota_used_bytes: 0 }; // a new block bought
  await meter.evaluate();
  assert.equal(meter.view()[0]!.used_bytes, 0);
  meter.close();
  await r.store.close();
});

test('the expiry is told 7 days ahead and on the day, once each', async () => {
  const clock = new ManualClock(at(2026, 11, 20, 10));
  const r = rig('expiry', [provider({ quota_period: 'none', quota_bytes: null, expires_on: '2026-11-30' })], clock);
  const meter = r.make();
  await meter.start();
  assert.equal(r.expiry.length, 0);
  assert.equal(meter.view()[0]!.expires_in_days, 10);
  const later = async (days: number) => {
    await clock.advance(days * 86_400_000);
    await meter.evaluate();
  };
  await later(3);
  assert.deepEqual(
    r.expiry.map((e) => e.days_left),
    [7],
  );
  await later(1);
  assert.equal(r.expiry.length, 1);
  await later(6);
  assert.deepEqual(
    r.expiry.map((e) => e.days_left),
    [7, 0],
  );
  meter.close();
  await r.store.close();
});
