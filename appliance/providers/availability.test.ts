import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { openStore } from '../store/index.js';
import { ProviderAvailability, ageBand } from './availability.js';
import { LmdbAvailabilityStore } from './availability.store.js';

const dir = mkdtempSync(join(tmpdir(), 'spool-availability-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const DAY = 86_400_000;

test('post-age bands from the post date', () => {
  const now = Date.parse('2026-11-28T00:00:00Z');
  assert.equal(ageBand(now - 2 * DAY, now), '0-30d');
  assert.equal(ageBand(now - 31 * DAY, now), '1-12m');
  assert.equal(ageBand(now - 400 * DAY, now), '1-3y');
  assert.equal(ageBand(now - 4 * 365 * DAY, now), '3y+');
  assert.equal(ageBand(undefined, now), 'unknown');
  assert.equal(ageBand(0, now), 'unknown');
});

test('only evidence counts: a body is "had", a 430 "did not have"; errors and damaged bodies count nothing', async () => {
  const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));
  const store = openStore({ rootPath: join(dir, 'evidence') });
  const a = new ProviderAvailability({ store: new LmdbAvailabilityStore(store), clock });
  const posted = clock.now() - 3 * DAY;
  a.command({ providerId: 'p', outcome: 'ok', posted });
  a.command({ providerId: 'p', outcome: 'ok', posted });
  a.command({ providerId: 'p', outcome: 'missing', posted });
  a.command({ providerId: 'p', outcome: 'error', posted }); // a timeout or refusal: no evidence
  a.command({ providerId: 'p', outcome: 'damaged', posted });
  a.command({ providerId: 'q', outcome: 'error', posted }); // a provider with no evidence at all is not listed
  const [p, ...rest] = a.view();
  assert.equal(rest.length, 0);
  assert.deepEqual(p!.windows['7']['0-30d'], { had: 2, missing: 1, share: 2 / 3 });
  assert.deepEqual(p!.windows['30']['1-12m'], { had: 0, missing: 0, share: null });
  await store.close();
});

test('counts survive a restart; the 7-day window drops older days the 30-day one keeps, then both drop them', async () => {
  const clock = new ManualClock(Date.parse('2026-11-01T12:00:00Z'));
  const path = join(dir, 'days');
  let store = openStore({ rootPath: path });
  let a = new ProviderAvailability({ store: new LmdbAvailabilityStore(store), clock });
  a.command({ providerId: 'p', outcome: 'missing', posted: clock.now() - 500 * DAY });
  await a.flush();
  await clock.advance(10 * DAY);
  a.command({ providerId: 'p', outcome: 'ok', posted: clock.now() - 500 * DAY });
  await a.flush();
  await store.close();

  store = openStore({ rootPath: path });
  a = new ProviderAvailability({ store: new LmdbAvailabilityStore(store), clock });
  let cells = a.view()[0]!.windows;
  assert.deepEqual(cells['7']['1-3y'], { had: 1, missing: 0, share: 1 });
  assert.deepEqual(cells['30']['1-3y'], { had: 1, missing: 1, share: 0.5 });
  await clock.advance(25 * DAY); // the first day is now 35 days back
  await a.flush();
  cells = a.view()[0]!.windows;
  assert.deepEqual(cells['30']['1-3y'], { had: 1, missing: 0, share: 1 });
  await store.close();
  store = openStore({ rootPath: path });
  const kept = [...new LmdbAvailabilityStore(store).all()];
  assert.deepEqual(
    kept.map((r) => r.day),
    ['2026-11-11'],
  );
  await store.close();
});
