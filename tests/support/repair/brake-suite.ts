/**
 * The repair ledger's port (appliance/repair/repair-ledger.port.ts) and the repair brake on it, run on every store: appliance/repair/repair.brake.test.ts on LMDB,
 * tests/integration/postgres/repair-brake-pg.test.ts on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { EventBus, type RepairBrakeEvent, type SpoolEvents } from '../../../appliance/events/index.js';
import { RepairBrake } from '../../../appliance/repair/repair.brake.js';
import type { RepairLedger } from '../../../appliance/repair/repair-ledger.port.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';

export interface LedgerUnderTest {
  /** Prefixes the tests' names (none: the LMDB run keeps its names). */
  name?: string;
  /** A new empty place for a ledger (an LMDB directory, a PostgreSQL database). */
  place(): Promise<string>;
  /** A ledger on `place`, as a start opens it, and how to close it. */
  open(place: string): Promise<{ ledger: RepairLedger; close(): Promise<void> }>;
  /** After each test: every place goes. */
  cleanup(): Promise<void>;
}

const WINDOW = 30 * 60_000;

export function repairBrakeSuite(s: LedgerUnderTest): void {
  const title = (t: string) => (s.name ? `${s.name}: ${t}` : t);
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0)) await close();
    await s.cleanup();
  });

  async function brakeOn(place: string, clock: ManualClock, said: RepairBrakeEvent[] = []) {
    const { ledger, close } = await s.open(place);
    let closed = false;
    const closeOnce = async () => {
      if (!closed) await close();
      closed = true;
    };
    open.push(closeOnce);
    const log = memoryLogger();
    const events = new EventBus<SpoolEvents>(log);
    events.on('repair.brake.changed', (e) => said.push(e));
    const brake = new RepairBrake({
      ledger,
      clock,
      settings: () => ({ percent: 30, windowMs: WINDOW }),
      logger: log,
      events,
    });
    return { brake, close: closeOnce };
  }

  test(
    title('the brake engages on a wave of bad verdicts and holds after the window passed, until an admin releases it'),
    async () => {
      const clock = new ManualClock();
      const said: RepairBrakeEvent[] = [];
      const { brake } = await brakeOn(await s.place(), clock, said);
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
    },
  );

  test(title('a share at or below the setting never engages the brake'), async () => {
    const clock = new ManualClock();
    const { brake } = await brakeOn(await s.place(), clock);
    for (let i = 0; i < 7; i++) brake.record(clock.now(), false);
    for (let i = 0; i < 3; i++) brake.record(clock.now(), true); // 30%: not more than 30%
    assert.equal(brake.heldReason(), null);
    brake.record(clock.now(), true); // 4 of 11
    assert.ok(brake.heldReason());
  });

  test(title('an engaged brake stays engaged across a restart; a released one stays released'), async () => {
    const place = await s.place();
    const clock = new ManualClock();
    const first = await brakeOn(place, clock);
    for (let i = 0; i < 10; i++) first.brake.record(clock.now(), true);
    const reason = first.brake.heldReason();
    assert.ok(reason);
    await first.brake.saved();
    await first.close();

    const second = await brakeOn(place, clock);
    assert.equal(second.brake.heldReason(), null, 'nothing read yet');
    await second.brake.load();
    assert.equal(second.brake.heldReason(), reason);
    await second.brake.release('admin');
    await second.close();

    const third = await brakeOn(place, clock);
    await third.brake.load();
    assert.equal(third.brake.heldReason(), null);
    assert.equal(third.brake.current.releasedBy, 'admin');
  });

  test(title('the ledger: the brake, the history newest first within its keep, broken releases'), async () => {
    const { ledger, close } = await s.open(await s.place());
    open.push(close);
    assert.deepEqual(await ledger.brake(), { engaged: false, reason: null, changedAt: null, releasedBy: null });
    const engaged = { engaged: true, reason: 'too many', changedAt: 7, releasedBy: null };
    await ledger.setBrake(engaged);
    assert.deepEqual(await ledger.brake(), engaged);
    const entry = (i: number) => ({
      at: i,
      path: `/f${i}`,
      method: 'arr' as const,
      instance: i % 2 ? 'radarr' : null,
      result: 'done' as const,
      reason: null,
      manual: false,
    });
    for (let i = 1; i <= 5; i++) assert.equal((await ledger.addHistory(entry(i), 3)).id, i);
    const page = await ledger.history(10, 0);
    assert.equal(page.total, 3);
    assert.deepEqual(
      page.items,
      [5, 4, 3].map((i) => ({ id: i, ...entry(i) })),
    );
    assert.deepEqual(
      (await ledger.history(1, 1)).items.map((e) => e.id),
      [4],
    );
    assert.deepEqual((await ledger.history(0, 0)).items, []);
    assert.equal(await ledger.broken('fp'), undefined);
    const broken = { fingerprint: 'fp', path: '/f', at: 3, reason: 'takedown' };
    await ledger.markBroken(broken);
    await ledger.markBroken({ ...broken, at: 4 });
    assert.deepEqual(await ledger.broken('fp'), { ...broken, at: 4 });
  });
}
