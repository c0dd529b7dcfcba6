import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { createLogger } from '../logging/logger.js';
import { ProtocolError } from '../nntp/index.js';
import { openStore } from '../store/index.js';
import type { CandidateAnswer } from './candidate-link.js';
import { CandidateSampler } from './fit-sampler.js';
import { FitTally } from './fit-tally.js';
import { candidateFit } from './fit-report.js';
import { LmdbFitStore } from './fit.store.js';
import { StatBudget } from './stat-budget.js';
import { FitService, type FitAccount } from './fit.service.js';

const NO_PRICE = { price_per_month: null, price_per_block: null, block_size_gb: null };
import { LibrarySweep, type LibraryFiles } from './library-sweep.js';

const dir = mkdtempSync(join(tmpdir(), 'spool-fit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const HOUR = 3_600_000;
const DAY = 86_400_000;
const logger = createLogger('test', process.env.FIT_LOG ? 'debug' : 'error');

/** A library of `files` files of `perFile` articles each, posted `ageDays` ago. */
function library(files: number, perFile: number, now: number, ageDays = 3): LibraryFiles {
  const date = Math.floor((now - ageDays * DAY) / 1000);
  const layouts = new Map(
    Array.from({ length: files }, (_, f) => [
      `L${f}`,
      {
        size: perFile,
        segments: Array.from({ length: perFile }, (_, i) => ({
          messageId: `f${f}a${i}@t`,
          start: i,
          end: i + 1,
          post: 0,
        })),
        posts: [{ poster: 'p', date, subject: 's', groups: ['g'] }],
      },
    ]),
  );
  return {
    subtree: () => [...layouts.keys()].map((id) => ({ type: 'file', layoutId: id, segmentCount: perFile })),
    layout: (id) => layouts.get(id),
  };
}

/** A seeded generator, so a test's draws are the same on every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

test('a pass visits every article of the library once, spread over the files', () => {
  const lib = library(3, 7, Date.now());
  const sweep = new LibrarySweep(lib, seeded(7));
  const seen: string[] = [];
  for (let a = sweep.next(); a; a = sweep.next()) seen.push(a.messageId);
  assert.equal(seen.length, 21);
  assert.equal(new Set(seen).size, 21);
  assert.deepEqual(new Set(seen.slice(0, 3).map((id) => id.split('a')[0])).size, 3, 'the first three from three files');
});

test('the sampler keeps within its budget, counts the misses it fills and never counts an error', async () => {
  const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));
  const store = openStore({ rootPath: join(dir, 'sampler') });
  const tally = new FitTally({ store: new LmdbFitStore(store), clock });
  const lib = library(4, 25, clock.now()); // 100 articles
  const article = (id: string) => Number(/a(\d+)@/.exec(id)![1]);
  const missing = (id: string) => article(id) % 2 === 0; // the current providers miss half
  const candidateHas = (id: string) => article(id) % 4 === 0; // and the candidate half of those
  let currentStats = 0;
  let candidateStats = 0;
  const current = {
    statBatch: async (ids: readonly string[]) => {
      currentStats += ids.length;
      return ids.map((id) => !missing(id));
    },
  };
  const link = {
    stat: async (id: string): Promise<CandidateAnswer> => {
      candidateStats++;
      if (id.startsWith('f3a1'))
        return { kind: 'error', message: new ProtocolError('Garbage instead of a status line').message };
      return candidateHas(id) ? { kind: 'had' } : { kind: 'missing' };
    },
    close: () => undefined,
  };
  const account = {
    id: 'trial',
    host: 'h',
    port: 119,
    username: '',
    password: '',
    tls: false,
    insecure_tls: false,
    ca: '',
  };
  const sampler = new CandidateSampler({
    account,
    budget: new StatBudget(30, clock),
    library: lib,
    current,
    tally,
    clock,
    logger,
    link,
    random: seeded(42),
  });
  sampler.start();
  await clock.advance(0);
  assert.equal(currentStats, 30, 'one hour of budget at once');
  assert.ok(candidateStats <= 30);
  await clock.advance(HOUR / 2);
  assert.equal(currentStats, 45, 'then the rate');
  await clock.advance(10 * HOUR); // the pass ends at 100, and the next waits for a day from the first
  assert.equal(currentStats, 100);
  await clock.advance(DAY);
  assert.ok(currentStats > 100 && currentStats <= 100 + 30 + (30 * (DAY - 10.5 * HOUR)) / HOUR);
  await sampler.close();

  const fit = candidateFit(
    { id: 'trial', host: 'h', statsPerHour: 30, lastError: sampler.lastError },
    tally.samples(),
    '2026-11-01',
  );
  const band = fit.bands.find((b) => b.band === '0-30d')!;
  assert.ok(fit.errors > 0, 'the garbage answers are reported');
  assert.match(fit.last_error ?? '', /Garbage/);
  // The f3a1x articles that erred are in neither count; of each file's 13 misses, 7 are on the candidate.
  const misses = band.misses_filled;
  assert.ok(misses.n >= 40, JSON.stringify(misses));
  assert.ok(Math.abs(misses.share! - 0.5) < 0.1, JSON.stringify(misses));
  assert.ok(misses.interval![0] <= 0.5 && 0.5 <= misses.interval![1]);
  assert.equal(fit.candidate_stats, candidateStats);
  await store.close();
});

test('a config edit restarts the sampler with the budget it had: an edit never grants another hour', async () => {
  const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));
  const store = openStore({ rootPath: join(dir, 'service') });
  const tally = new FitTally({ store: new LmdbFitStore(store), clock });
  let currentStats = 0;
  const current = {
    statBatch: async (ids: readonly string[]) => ((currentStats += ids.length), ids.map(() => false)),
  };
  const link = () => ({ stat: async (): Promise<CandidateAnswer> => ({ kind: 'missing' }), close: () => undefined });
  const base = {
    id: 'trial',
    host: 'h',
    port: 119,
    username: '',
    password: '',
    tls: false,
    insecure_tls: false,
    ca: '',
  };
  let accounts: FitAccount[] = [{ ...base, enabled: true, candidate: true, fit_stats_per_hour: 10, ...NO_PRICE }];
  const fit = new FitService({
    accounts: () => accounts,
    library: library(2, 50, clock.now()),
    current,
    totals: () => [],
    tally,
    clock,
    logger,
    link,
    random: seeded(3),
  });
  fit.start();
  await clock.advance(0);
  assert.equal(currentStats, 10);
  accounts = [{ ...accounts[0]!, price_per_month: 4 }];
  await fit.reconcile();
  await clock.advance(0);
  assert.equal(currentStats, 10, 'the restarted sampler has nothing left this hour');
  accounts = [{ ...accounts[0]!, fit_stats_per_hour: 20 }];
  await fit.reconcile();
  await clock.advance(0);
  assert.equal(currentStats, 10, 'a new rate starts empty');
  await clock.advance(HOUR / 20);
  assert.equal(currentStats, 11);
  await fit.stop();
  assert.equal(fit.report().candidates[0]!.all.misses_filled.n, 11);
  await store.close();
});
