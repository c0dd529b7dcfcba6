import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { openHealthStore } from '../health/health.store.js';
import { memoryLogger } from '../logging/logger.js';
import { openStore, schemaVersion, type Key, type Store } from '../store/index.js';
import type { BrakeState, BrokenRelease, RepairHistoryEntry } from './repair-ledger.port.js';
import { repairLedgerStorage } from './repair-ledger.storage.js';
import { readLmdbLedger } from './repair-ledger.store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function place(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spool-ledger-'));
  dirs.push(dir);
  return dir;
}

const BRAKE: BrakeState = { engaged: true, reason: '12 of 20 files turned bad', changedAt: 7, releasedBy: null };
const entry = (id: number): RepairHistoryEntry => ({
  id,
  at: id * 10,
  path: `/complete/movies/f${id}.mkv`,
  method: id % 2 ? 'par2' : 'arr',
  instance: id % 2 ? null : 'radarr',
  result: 'done',
  reason: null,
  manual: false,
});
const newEntry = (id: number): Omit<RepairHistoryEntry, 'id'> => {
  const { id: _, ...rest } = entry(id);
  return rest;
};
const BROKEN: BrokenRelease = { fingerprint: 'fp1', path: '/complete/movies/gone.mkv', at: 5, reason: 'takedown' };

/** The ledger as Spool kept it before it was repair's own: the `health-ledger` database beside the health records. */
function writeOldLayout(store: Store): void {
  const old = store.openDb<unknown, Key>('health-ledger');
  old.putSync(['brake'], BRAKE);
  for (const id of [3, 4, 5]) old.putSync(['h', id], entry(id));
  old.putSync(['hn'], 6);
  old.putSync(['b', BROKEN.fingerprint], BROKEN);
}

const opening = (local: Store, dataDir: string) => ({ local, dataDir, logger: memoryLogger() });

test('an LMDB store written in the old layout opens with its ledger intact, moved to its own database', async () => {
  const dir = place();
  const before = openStore({ rootPath: dir });
  const health = openHealthStore(before);
  await health.setInStepAt(42);
  writeOldLayout(before);
  await before.close();

  const store = openStore({ rootPath: dir });
  try {
    assert.equal(schemaVersion(store, 'repair-ledger'), 0);
    const { repairLedger } = repairLedgerStorage.lmdb(opening(store, dir));
    assert.equal(schemaVersion(store, 'repair-ledger'), 1);
    assert.deepEqual(await repairLedger.brake(), BRAKE);
    assert.deepEqual(await repairLedger.history(10, 0), { items: [5, 4, 3].map(entry), total: 3 });
    assert.deepEqual(await repairLedger.broken('fp1'), BROKEN);
    const next = await repairLedger.addHistory(newEntry(6), 1000);
    assert.equal(next.id, 6, 'history ids go on from the old next id');
    assert.equal(store.openDb('health-ledger').getKeysCount(), 0, 'nothing is left under the old name');
    assert.equal(await openHealthStore(store).inStepAt(), 42, "the health store's own data is untouched");
  } finally {
    await store.close();
  }

  // Opened again: the step is not run twice, and what was written since stays.
  const again = openStore({ rootPath: dir });
  try {
    const { repairLedger } = repairLedgerStorage.lmdb(opening(again, dir));
    assert.equal((await repairLedger.history(10, 0)).total, 4);
    assert.deepEqual(await repairLedger.brake(), BRAKE);
  } finally {
    await again.close();
  }
});

test('the copy reads an LMDB ledger in either layout: not yet moved, and moved', async () => {
  const dir = place();
  const store = openStore({ rootPath: dir });
  try {
    writeOldLayout(store);
    const expected = { brake: BRAKE, history: [3, 4, 5].map(entry), nextHistoryId: 6, broken: [BROKEN] };
    assert.deepEqual(readLmdbLedger(store), expected, 'an install this Spool never started');
    repairLedgerStorage.lmdb(opening(store, dir));
    assert.deepEqual(readLmdbLedger(store), expected, 'once a start moved it');
  } finally {
    await store.close();
  }
});

test('a new install starts with an empty ledger and a released brake', async () => {
  const dir = place();
  const store = openStore({ rootPath: dir });
  try {
    const { repairLedger } = repairLedgerStorage.lmdb(opening(store, dir));
    assert.deepEqual(await repairLedger.brake(), {
      engaged: false,
      reason: null,
      changedAt: null,
      releasedBy: null,
    });
    assert.deepEqual(await repairLedger.history(10, 0), { items: [], total: 0 });
    assert.equal((await repairLedger.addHistory(newEntry(1), 10)).id, 1);
  } finally {
    await store.close();
  }
});
