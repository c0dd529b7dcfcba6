import { migratePg, type PgDb } from '../store/pg/index.js';
import { REPAIR_LEDGER_PG_MIGRATIONS } from './repair-ledger-pg.migrations.js';
import {
  BRAKE_RELEASED,
  type BrakeState,
  type BrokenRelease,
  type RepairHistoryEntry,
  type RepairLedger,
} from './repair-ledger.port.js';

/** Brings the 'repair-ledger' schema up to date (repair-ledger-pg.migrations.ts), then opens the ledger on it. */
export async function openPgRepairLedger(db: PgDb): Promise<PgRepairLedger> {
  await migratePg(db, { 'repair-ledger': REPAIR_LEDGER_PG_MIGRATIONS });
  return new PgRepairLedger(db);
}

/**
 * The repair ledger on PostgreSQL (the LMDB one is repair-ledger.store.ts; its tables: repair-ledger-pg.migrations.ts):
 *   repair_ledger_meta 'brake'  the repair brake (survives a restart engaged)
 *   repair_history              the repair history, ids from the sequence repair_history_ids
 *   repair_broken_releases      releases a verdict found broken, by fingerprint (checked at import)
 */
export class PgRepairLedger implements RepairLedger {
  constructor(private readonly db: PgDb) {}

  async brake(): Promise<BrakeState> {
    const rows = await this.db.query<{ value: BrakeState }>("SELECT value FROM repair_ledger_meta WHERE key = 'brake'");
    return rows.rows[0]?.value ?? BRAKE_RELEASED;
  }

  async setBrake(state: BrakeState): Promise<void> {
    await this.db.query(
      `INSERT INTO repair_ledger_meta (key, value) VALUES ('brake', $1::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify(state)],
    );
  }

  async addHistory(entry: Omit<RepairHistoryEntry, 'id'>, keep: number): Promise<RepairHistoryEntry> {
    return this.db.tx(async (tx) => {
      const next = await tx.query<{ id: number }>("SELECT nextval('repair_history_ids')::float8 AS id");
      const id = next.rows[0]!.id;
      const stored: RepairHistoryEntry = { id, ...entry };
      await tx.query('INSERT INTO repair_history (id, entry) VALUES ($1, $2::jsonb)', [id, JSON.stringify(stored)]);
      await tx.query('DELETE FROM repair_history WHERE id < $1', [Math.max(0, id + 1 - keep)]);
      return stored;
    });
  }

  async history(limit: number, offset: number): Promise<{ items: RepairHistoryEntry[]; total: number }> {
    return this.db.tx(
      async (tx) => {
        const total = await tx.query<{ n: number }>('SELECT count(*)::float8 AS n FROM repair_history');
        const items = await tx.query<{ entry: RepairHistoryEntry }>(
          'SELECT entry FROM repair_history ORDER BY id DESC LIMIT $1 OFFSET $2',
          [Math.max(0, limit), Math.max(0, offset)],
        );
        return { items: items.rows.map((r) => r.entry), total: total.rows[0]!.n };
      },
      { isolation: 'repeatable read' },
    );
  }

  async markBroken(release: BrokenRelease): Promise<void> {
    await this.db.query(
      `INSERT INTO repair_broken_releases (fingerprint, release) VALUES ($1, $2::jsonb)
       ON CONFLICT (fingerprint) DO UPDATE SET release = EXCLUDED.release`,
      [release.fingerprint, JSON.stringify(release)],
    );
  }

  async broken(fingerprint: string): Promise<BrokenRelease | undefined> {
    const rows = await this.db.query<{ release: BrokenRelease }>(
      'SELECT release FROM repair_broken_releases WHERE fingerprint = $1',
      [fingerprint],
    );
    return rows.rows[0]?.release;
  }
}
