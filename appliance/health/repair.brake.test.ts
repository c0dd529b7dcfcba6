import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import { EventBus, type RepairBrakeEvent, type SpoolEvents } from '../events/index.js';
import { memoryLogger } from '../logging/logger.js';
import { openStore, type Store } from '../store/index.js';
import { RepairBrake } from './repair.brake.js';
import { LmdbRepairLedger } from './repair-ledger.store.js';

const WINDOW = 30 * 60_000;
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function brakeOn(dir: string, clock: ManualClock, said: RepairBrakeEvent[] = []) {
  const store = openStore({ rootPath: dir });
  stores.push(store);
  const log = memoryLogger();
  const events = new EventBus<SpoolEvents>(log);
  events.on('repair.brake.changed', (e) => said.push(e));
  const brake = new RepairBrake({
    ledger: new LmdbRepairLedger(store),
    clock,
    settings: () => ({ percent: 30, windowMs: WINDOW }),
    logger: log,
    events,
  });
  return { brake, store };
}

function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spool-brake-'));
  dirs.push(dir);
  return dir;
}

test('the brake engages on a wave of bad verdicts and holds after the window passed, until an admin releases it', async () => {
  const clock = new ManualClock();
  const said: RepairBrakeEvent[] = [];
  const { brake } = brakeOn(tmp(), clock, said);
  await brake.load();
  // Fewer than ten checks never engage it, however bad.
  for (let i = 0; i < 9; i++) brake.record(clock.now(), true);
  assert.equal(brake.heldReason(), null);
  brake.record(clock.now(), true);
  assert.match(brake.heldReason() ?? '', /10 of 10 files checked in the last 30 min turned bad/);
  assert.equal(said.length, 1);
  assert.equal(said[0]!.engaged, true);
  // An automatic breaker would close again here: the window is over and the new checks are healthy.
  await clock.advance(WINDOW * 3);
  for (let i = 0; i < 20; i++) brake.record(clock.now(), false);
  assert.ok(brake.heldReason(), 'still held: only an admin releases it');
  const after = await brake.release('alice');
  assert.deepEqual(
    { engaged: after.engaged, by: after.releasedBy, at: after.changedAt },
    { engaged: false, by: 'alice', at: clock.now() },
  );
  assert.equal(brake.heldReason(), null);
  assert.deepEqual(
    said.map((e) => [e.engaged, e.released_by]),
    [
      [true, null],
      [false, 'alice'],
    ],
  );
  // The verdicts that engaged it are forgotten: one more bad file does not engage it again.
  brake.record(clock.now(), true);
  assert.equal(brake.heldReason(), null);
});

test('a share at or below the setting never engages the brake', async () => {
  const clock = new ManualClock();
  const { brake } = brakeOn(tmp(), clock);
  for (let i = 0; i < 7; i++) brake.record(clock.now(), false);
  for (let i = 0; i < 3; i++) brake.record(clock.now(), true); // 30%: not more than 30%
  assert.equal(brake.heldReason(), null);
  brake.record(clock.now(), true); // 4 of 11
  assert.ok(brake.heldReason());
});

test('an engaged brake stays engaged across a restart; a released one stays released', async () => {
  const dir = tmp();
  const clock = new ManualClock();
  const first = brakeOn(dir, clock);
  for (let i = 0; i < 10; i++) first.brake.record(clock.now(), true);
  const reason = first.brake.heldReason();
  assert.ok(reason);
  await first.brake.saved();
  stores.splice(stores.indexOf(first.store), 1);
  await first.store.close();

  const second = brakeOn(dir, clock);
  assert.equal(second.brake.heldReason(), null, 'nothing read yet');
  await second.brake.load();
  assert.equal(second.brake.heldReason(), reason);
  await second.brake.release('admin');
  stores.splice(stores.indexOf(second.store), 1);
  await second.store.close();

  const third = brakeOn(dir, clock);
  await third.brake.load();
  assert.equal(third.brake.heldReason(), null);
  assert.equal(third.brake.current.releasedBy, 'admin');
});
