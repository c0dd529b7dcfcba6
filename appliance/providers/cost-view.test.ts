import assert from 'node:assert/strict';
import { test } from 'node:test';
import { costView, type PricedAccount } from './cost-view.js';
import { watchedSeconds } from './watched.js';

const now = Date.parse('2026-11-28T12:00:00Z');
const account = (over: Partial<PricedAccount>): PricedAccount => ({
  id: 'p',
  host: 'h',
  candidate: false,
  price_per_month: null,
  price_per_block: null,
  block_size_gb: null,
  ...over,
});

test('a monthly account costs its price over the GB fetched and the hours watched in the last 30 days', () => {
  const totals = [
    { day: '2026-11-28', providerId: 'm', bytes: 150e9 },
    { day: '2026-11-01', providerId: 'm', bytes: 50e9 },
    { day: '2026-10-01', providerId: 'm', bytes: 999e9 }, // before the window
  ];
  const watched = [
    { day: '2026-11-20', seconds: 36_000 },
    { day: '2026-10-01', seconds: 99_999 },
  ];
  const v = costView([account({ id: 'm', price_per_month: 12 })], totals, watched, now);
  assert.equal(v.hours_watched, 10);
  const m = v.providers[0]!;
  assert.equal(m.pricing, 'month');
  assert.equal(m.bytes, 200e9);
  assert.equal(m.cost, 12);
  assert.equal(m.cost_per_gb, 12 / 200);
  assert.equal(m.cost_per_hour_watched, 1.2);
  assert.equal(m.runs_out_on, null);
  assert.deepEqual(v.total, { cost: 12, bytes: 200e9, cost_per_gb: 0.06, cost_per_hour_watched: 1.2 });
});

test('a block account costs its price per GB, and runs out at the last 30 days rate', () => {
  // 1000 GB for 50; 300 GB used before the window, 300 GB in it (10 GB a day): 400 GB left, 40 days.
  const totals = [
    { day: '2026-09-01', providerId: 'b', bytes: 300e9 },
    { day: '2026-11-15', providerId: 'b', bytes: 300e9 },
  ];
  const v = costView([account({ id: 'b', price_per_block: 50, block_size_gb: 1000 })], totals, [], now);
  const b = v.providers[0]!;
  assert.equal(b.pricing, 'block');
  assert.equal(b.cost_per_gb, 0.05);
  assert.equal(b.cost, 15);
  assert.equal(b.cost_per_hour_watched, null, 'nothing watched');
  assert.equal(b.block_left_gb, 400);
  assert.equal(b.runs_out_on, '2027-01-07');
});

test('no price, no cost; a candidate is shown but not in the total; idle block accounts never run out', () => {
  const v = costView(
    [
      account({ id: 'free' }),
      account({ id: 'trial', candidate: true, price_per_month: 5 }),
      account({ id: 'idle', price_per_block: 10, block_size_gb: 100 }),
    ],
    [{ day: '2026-11-28', providerId: 'free', bytes: 1e9 }],
    [],
    now,
  );
  assert.deepEqual(
    v.providers.map((p) => [p.provider, p.cost]),
    [
      ['free', null],
      ['trial', 5],
      ['idle', 0],
    ],
  );
  assert.equal(v.providers[2]!.runs_out_on, null);
  assert.equal(v.total.cost, 0);
  assert.equal(v.total.bytes, 1e9);
});

test('watched time: players only, the media time their bytes cover, never more than they were open', () => {
  const base = { opened_at: '2026-11-28T10:00:00Z', closed_at: '2026-11-28T11:00:00Z', media_bitrate_bps: null };
  assert.equal(watchedSeconds({ ...base, reader_class: 'scanner', bytes_served: 1e9 }), 0);
  assert.equal(watchedSeconds({ ...base, reader_class: 'player', bytes_served: 1e9 }), 3600);
  assert.equal(watchedSeconds({ ...base, reader_class: 'player', bytes_served: 1e6, media_bitrate_bps: 1e3 }), 1000);
  assert.equal(watchedSeconds({ ...base, reader_class: 'player', bytes_served: 1e9, media_bitrate_bps: 1e3 }), 3600);
});
