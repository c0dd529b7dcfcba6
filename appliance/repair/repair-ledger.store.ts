import { migrate, schemaVersion, type Database, type Key, type Store } from '../store/index.js';
import { LEDGER_DB, LEGACY_LEDGER_DB, REPAIR_LEDGER_MIGRATIONS } from './repair-ledger.migrations.js';
import {
  BRAKE_RELEASED,
  type BrakeState,
  type BrokenRelease,
  type RepairHistoryEntry,
  type RepairLedger,
} from './repair-ledger.port.js';

/** Brings the ledger's LMDB database up to date (repair-ledger.migrations.ts), then opens the ledger on it. */
export function openRepairLedger(store: Store): LmdbRepairLedger {
  migrate(store, 'repair-ledger', REPAIR_LEDGER_MIGRATIONS);
  return new LmdbRepairLedger(store);
}

/**
 * The repair ledger on LMDB, one database `repair-ledger`:
 *   ['brake'] -> BrakeState              the repair brake (survives a restart engaged)
 *   ['h', id] -> RepairHistoryEntry      the repair history, ids rising; ['hn'] -> next id
 *   ['b', fingerprint] -> BrokenRelease  releases a verdict found broken (checked at import)
 */
export class LmdbRepairLedger implements RepairLedger {
  private readonly db: Database<unknown, Key>;

  constructor(store: Store) {
    this.db = store.openDb<unknown, Key>(LEDGER_DB);
  }

  async brake(): Promise<BrakeState> {
    return (this.db.get(['brake']) as BrakeState | undefined) ?? BRAKE_RELEASED;
  }

  async setBrake(state: BrakeState): Promise<void> {
    await this.db.put(['brake'], state);
  }

  async addHistory(entry: Omit<RepairHistoryEntry, 'id'>, keep: number): Promise<RepairHistoryEntry> {
    return this.db.transaction(() => {
      const id = (this.db.get(['hn']) as number | undefined) ?? 1;
      const stored: RepairHistoryEntry = { id, ...entry };
      void this.db.put(['hn'], id + 1);
      void this.db.put(['h', id], stored);
      for (const key of this.db.getKeys({ start: ['h', 0], end: ['h', Math.max(0, id + 1 - keep)] }))
        void this.db.remove(key);
      return stored;
    });
  }

  async history(limit: number, offset: number): Promise<{ items: RepairHistoryEntry[]; total: number }> {
    const total = this.db.getCount({ start: ['h', 0], end: ['h', Number.MAX_SAFE_INTEGER] });
    const newestFirst = { start: ['h', Number.MAX_SAFE_INTEGER], end: ['h', 0], reverse: true, offset, limit };
    const items = [...this.db.getRange(newestFirst).map((e) => e.value as RepairHistoryEntry)];
    return { items, total };
  }

  async markBroken(release: BrokenRelease): Promise<void> {
    await this.db.put(['b', release.fingerprint], release);
  }

  async broken(fingerprint: string): Promise<BrokenRelease | undefined> {
    return this.db.get(['b', fingerprint]) as BrokenRelease | undefined;
  }
}

/** Everything an LMDB ledger holds, for `spool migrate` (repair-ledger.copy.ts). */
export interface LedgerContents {
  brake: BrakeState | undefined;
  /** Oldest first. */
  history: RepairHistoryEntry[];
  nextHistoryId: number;
  broken: BrokenRelease[];
}

/**
 * Reads an LMDB install's ledger: from `repair-ledger`, or, in an install this Spool has not started yet (a backup,
 * or an install moved straight after an upgrade), from `health-ledger`, where it was kept before.
 */
export function readLmdbLedger(store: Store): LedgerContents {
  const moved = schemaVersion(store, 'repair-ledger') >= 1;
  const db = store.openDb<unknown, Key>(moved ? LEDGER_DB : LEGACY_LEDGER_DB);
  const history: RepairHistoryEntry[] = [];
  const broken: BrokenRelease[] = [];
  for (const { key, value } of db.getRange({ start: ['h', 0], end: ['h', Number.MAX_SAFE_INTEGER] }))
    if ((key as unknown[])[0] === 'h') history.push(value as RepairHistoryEntry);
  for (const { key, value } of db.getRange({ start: ['b'], end: ['b', '\uffff\uffff'] }))
    if ((key as unknown[])[0] === 'b') broken.push(value as BrokenRelease);
  return {
    brake: db.get(['brake']) as BrakeState | undefined,
    history,
    nextHistoryId: (db.get(['hn']) as number | undefined) ?? 1,
    broken,
  };
}
