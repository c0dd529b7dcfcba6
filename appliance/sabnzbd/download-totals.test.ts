import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { memoryLogger } from '../logging/logger.js';
import { RecentWarnings } from '../logging/recent-warnings.js';
import { openStore, type Store } from '../store/index.js';
import { dayLabel, monthPrefix, weekStartLabel } from './calendar.js';
import { DownloadTotals, type ProviderCounters } from './download-totals.js';
import { LmdbDownloadTotalsStore } from './download-totals.store.js';
import { serverNames } from './server-names.js';

const DAY = 86_400_000;
let dir = '';
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function open(): Store {
  dir ||= mkdtempSync(join(tmpdir(), 'spool-totals-'));
  store = openStore({ rootPath: dir });
  return store;
}

/** The pool's counters, set by hand: each provider's bytes/tried/failed since "the pool started". */
function totalsOn(s: Store, clock: ManualClock) {
  const counters = new Map<string, ProviderCounters>();
  const set = (id: string, bytes: number, tried = 0, failed = 0) =>
    counters.set(id, { id, host: `${id}.example`, bytes, tried, failed });
  const totals = new DownloadTotals({
    store: new LmdbDownloadTotalsStore(s),
    clock,
    counters: () => [...counters.values()],
    logger: memoryLogger(),
  });
  return { totals, set, counters };
}

test('the calendar: local days, weeks from Monday, months from the 1st', () => {
  const fri = new Date(2026, 0, 30, 12).getTime();
  assert.equal(dayLabel(fri), '2026-01-30');
  assert.equal(weekStartLabel(fri), '2026-01-26');
  assert.equal(weekStartLabel(new Date(2026, 1, 1, 23).getTime()), '2026-01-26', 'Sunday belongs to the week before');
  assert.equal(weekStartLabel(new Date(2026, 1, 2, 0, 5).getTime()), '2026-02-02', 'Monday starts a week');
  assert.equal(monthPrefix(fri), '2026-01-');
});

test('what the counters grew by lands on the day it was counted; day, week, month and total follow the clock', async () => {
  const clock = new ManualClock(new Date(2026, 0, 30, 12).getTime()); // a Friday
  const { totals, set } = totalsOn(open(), clock);
  set('a', 1000, 10, 1);
  totals.sample();
  assert.deepEqual(totals.sums(), { total: 1000, month: 1000, week: 1000, day: 1000 });
  await clock.advance(DAY); // Saturday 31st: nothing moved on this day
  set('a', 1500, 14, 1);
  set('b', 200, 2, 2);
  await clock.advance(DAY); // Sunday 1st of February: a new month, the same week
  totals.sample(); // what grew since Friday's look is counted now, on Sunday
  set('a', 1700, 20, 3);
  assert.deepEqual(totals.sums(), { total: 1900, month: 900, week: 1900, day: 900 });
  const per = totals.byProvider();
  assert.deepEqual(per.get('a'), {
    total: 1700,
    month: 700,
    week: 1700,
    day: 700,
    daily: { '2026-01-30': 1000, '2026-02-01': 700 },
    articles_tried: { '2026-01-30': 10, '2026-02-01': 10 },
    articles_success: { '2026-01-30': 1, '2026-02-01': 2 },
  });
  assert.equal(per.get('b')?.total, 200);
  await clock.advance(DAY); // Monday 2nd: a new week
  assert.deepEqual(totals.sums(), { total: 1900, month: 900, week: 0, day: 0 });
});

test('the totals survive a restart; a pool made anew counts from 0 and is added, never subtracted', async () => {
  const clock = new ManualClock(new Date(2026, 4, 12, 9).getTime());
  let s = open();
  const first = totalsOn(s, clock);
  first.set('a', 5000, 50, 5);
  first.totals.close();
  await s.close();
  s = open();
  const second = totalsOn(s, clock);
  assert.deepEqual(second.totals.sums(), { total: 5000, month: 5000, week: 5000, day: 5000 });
  second.set('a', 300, 3, 0);
  second.totals.sample();
  second.set('a', 100, 4, 0); // a smaller counter: the provider was re-created and counts from 0 again
  assert.equal(second.totals.sums().total, 5400);
  assert.deepEqual(second.totals.byProvider().get('a')?.articles_tried, { '2026-05-12': 57 });
});

test('the timer moves the counters every minute, on the injected clock', async () => {
  const clock = new ManualClock(new Date(2026, 4, 12, 9).getTime());
  const s = open();
  const { totals, set } = totalsOn(s, clock);
  totals.start();
  set('a', 42);
  await clock.advance(60_000);
  // Read the store itself (sums() would sample on its own), once the write is on disk.
  await new LmdbDownloadTotalsStore(s).flushed();
  assert.deepEqual(
    [...new LmdbDownloadTotalsStore(s).all()].map((r) => [r.day, r.providerId, r.bytes]),
    [['2026-05-12', 'a', 42]],
  );
  totals.close();
  assert.equal(clock.timers, 0, 'close stops the timer');
});

test('servers are named by host; a shared host adds the port, a shared host:port the id', () => {
  const names = serverNames([
    { id: '1', host: 'news.one', port: 563 },
    { id: '2', host: 'news.two', port: 563 },
    { id: '3', host: 'news.two', port: 119 },
    { id: '4', host: 'news.three', port: 563 },
    { id: '5', host: 'news.three', port: 563 },
  ]);
  assert.deepEqual(Object.fromEntries(names), {
    'news.one': '1',
    'news.two:563': '2',
    'news.two:119': '3',
    'news.three:563 (4)': '4',
    'news.three:563 (5)': '5',
  });
});

test('recent warnings: warn and error events whatever the level, the last 20, with their fields; clear empties', () => {
  const clock = new ManualClock(1_700_000_000_000);
  const logger = memoryLogger();
  logger.setLevel('error');
  const warnings = new RecentWarnings(logger, clock);
  logger.child('nntp').warn('provider put aside', { provider: 'p1', cooldown_ms: 30000 });
  logger.info('not a warning');
  logger.error('boom');
  assert.deepEqual(warnings.content(), [
    {
      type: 'WARNING',
      text: 'provider put aside (provider: p1, cooldown_ms: 30000)',
      time: 1_700_000_000,
      origin: 'test.nntp',
    },
    { type: 'ERROR', text: 'boom', time: 1_700_000_000, origin: 'test' },
  ]);
  for (let i = 0; i < 25; i++) logger.warn(`w${i}`);
  assert.equal(warnings.count, 20);
  assert.equal(warnings.content()[0]!.text, 'w5');
  warnings.clear();
  assert.equal(warnings.count, 0);
  warnings.close();
  logger.warn('after close');
  assert.equal(warnings.count, 0);
});
