import assert from 'node:assert/strict';
import test from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import type { AwaitedReplacement, HealthRecord } from '../health/health.types.js';
import { memoryLogger } from '../logging/logger.js';
import type { ReplacementState } from './arr-replacement.js';
import { followReplacement, REPLACEMENT_POLL_MS, REPLACEMENT_WAIT_MS, type FollowDeps } from './replacement-watch.js';

const since = Date.UTC(2026, 10, 1);
const awaiting: AwaitedReplacement = {
  instance: 'radarr',
  arrType: 'radarr',
  itemId: 7,
  fileId: 70,
  episodeIds: [],
  quality: null,
  downloadId: 'SPOOL_old',
  grabId: 5,
  since,
};
const record = { id: 'r1', path: '/movies/Film (2020)/film.mkv', awaiting } as unknown as HealthRecord;

/** A watch over a fake arr answering `state` and Spool's side answering `bytes`; records what was done. */
function watch(state: ReplacementState | Error, bytes: { path: string } | { pending: string }, at: number) {
  const done = { gaveUp: 0, retired: [] as string[], failed: [] as string[], steps: [] as string[] };
  const deps: FollowDeps = {
    repairer: {
      replacementOf: () => (state instanceof Error ? Promise.reject(state) : Promise.resolve(state)),
      giveUp: () => {
        done.gaveUp++;
        return Promise.resolve();
      },
    },
    files: {
      firstBytes: () => Promise.resolve(bytes),
      retire: (path) => {
        done.retired.push(path);
        return Promise.resolve();
      },
    },
    clock: new ManualClock(at),
    logger: memoryLogger(),
    events: {
      emit: (name: string, payload: { step?: string }) => {
        if (name === 'repair.step' && payload.step) done.steps.push(payload.step);
      },
    } as unknown as FollowDeps['events'],
    failed: (reason) => done.failed.push(reason),
  };
  return { done, run: () => followReplacement(deps, record) };
}

const imported: ReplacementState = {
  state: 'imported',
  downloadId: 'SPOOL_new',
  arrPath: '/movies/Film (2020)/new.mkv',
};

test('while the arr has not imported a replacement the watch looks again later, and gives up after the wait', async () => {
  const early = watch({ state: 'waiting' }, { path: '' }, since + 1000);
  assert.deepEqual(await early.run(), { repairNextAt: since + 1000 + REPLACEMENT_POLL_MS, lastError: null });
  assert.equal(early.done.gaveUp, 0);

  const late = watch({ state: 'waiting' }, { path: '' }, since + REPLACEMENT_WAIT_MS);
  const patch = await late.run();
  assert.equal(patch?.awaiting, null);
  assert.match(patch?.lastError ?? '', /No replacement was imported in 7 days/);
  assert.equal(late.done.gaveUp, 1, 'the quality is written back');
  assert.deepEqual(late.done.retired, [], 'the old file stays');
});

test('an arr that cannot be asked is asked again later, with the reason kept', async () => {
  const w = watch(new Error('connect ECONNREFUSED'), { path: '' }, since + REPLACEMENT_WAIT_MS * 2);
  const patch = await w.run();
  assert.match(patch?.lastError ?? '', /could not be asked: connect ECONNREFUSED/);
  assert.notEqual(patch?.repairNextAt, null);
  assert.equal(w.done.gaveUp, 0, 'an outage is not a reason to give up');
});

test('an imported replacement Spool cannot read yet keeps the old file; past the wait the watch ends without undoing the arr', async () => {
  const pending = { pending: 'not a download of this Spool' };
  const early = watch(imported, pending, since + 3_600_000);
  const first = await early.run();
  assert.match(first?.lastError ?? '', /not retiring the old file yet: not a download of this Spool/);
  assert.equal(first?.repairNextAt, since + 3_600_000 + REPLACEMENT_POLL_MS);
  assert.deepEqual(early.done.retired, []);

  const late = watch(imported, pending, since + REPLACEMENT_WAIT_MS + 1);
  const patch = await late.run();
  assert.equal(patch?.awaiting, null);
  assert.equal(patch?.repairNextAt, null, 'no endless watch');
  assert.match(patch?.lastError ?? '', /imported a replacement Spool could not read in 7 days \(not a download/);
  assert.deepEqual(late.done.retired, [], 'the old release stays');
  assert.equal(late.done.gaveUp, 0, 'the arr keeps the file it imported: its quality is not written back');
  assert.equal(late.done.failed.length, 1);
});

test('a replacement that reads retires the old release, with both steps announced', async () => {
  const w = watch(imported, { path: '/content/movies/new.mkv' }, since + 3_600_000);
  assert.equal(await w.run(), null);
  assert.deepEqual(w.done.retired, [record.path]);
  assert.deepEqual(w.done.steps, ['replacement_imported', 'old_retired']);
});
