import type { Database, Key, Store } from '../store/index.js';
import {
  BRAKE_RELEASED,
  type BrakeState,
  type BrokenRelease,
  type RepairHistoryEntry,
  type RepairLedger,
} from './repair-ledger.port.js';

/**
 * The repair ledger on LMDB, one database `health-ledger` beside the records:
 *   ['brake'] -> BrakeState              the repair brake (survives a restart engaged)
 *   ['h', id] -> RepairHistoryEntry      the repair history, ids rising; ['hn'] -> next id
 *   ['b', fingerprint] -> BrokenRelease  releases a verdict found broken (checked at import)
 */
export class LmdbRepairLedger implements RepairLedger {
  private readonly db: Database<unknown, Key>;

  constructor(store: Store) {
    this.db = store.openDb<unknown, Key>('health-ledger');
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
