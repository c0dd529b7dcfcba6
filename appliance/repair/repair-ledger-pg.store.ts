import type { PgDb } from '../store/pg/index.js';
import {
  BRAKE_RELEASED,
  type BrakeState,
  type BrokenRelease,
  type RepairHistoryEntry,
  type RepairLedger,
} from './repair-ledger.port.js';

/**
 * The repair ledger on PostgreSQL (the LMDB one is repair-ledger.store.ts; schema in health-pg.migrations.ts):
 *   health_meta 'brake'       the repair brake (survives a restart engaged)
 *   health_repair_history     the repair history, ids from the sequence health_repair_history_ids
 *   health_broken_releases    releases a verdict found broken, by fingerprint (checked at import)
 */
export class PgRepairLedger implements RepairLedger {
  constructor(private readonly db: PgDb) {}

  async brake(): Promise<BrakeState> {
    const rows = await this.db.query<{ value: BrakeState }>("SELECT value FROM health_meta WHERE key = 'brake'");
    return rows.rows[0]?.value ?? BRAKE_RELEASED;
  }

  async setBrake(state: BrakeState): Promise<void> {
    await this.db.query(
      `INSERT INTO health_meta (key, value) VALUES ('brake', $1::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify(state)],
    );
  }

  async addHistory(entry: Omit<RepairHistoryEntry, 'id'>, keep: number): Promise<RepairHistoryEntry> {
    return this.db.tx(async (tx) => {
      const next = await tx.query<{ id: number }>("SELECT nextval('health_repair_history_ids')::float8 AS id");
      const id = next.rows[0]!.id;
      const stored: RepairHistoryEntry = { id, ...entry };
      await tx.query('INSERT INTO health_repair_history (id, entry) VALUES ($1, $2::jsonb)', [
        id,
        JSON.stringify(stored),
      ]);
      await tx.query('DELETE FROM health_repair_history WHERE id < $1', [Math.max(0, id + 1 - keep)]);
      return stored;
    });
  }

  async history(limit: number, offset: number): Promise<{ items: RepairHistoryEntry[]; total: number }> {
    return this.db.tx(
      async (tx) => {
        const total = await tx.query<{ n: number }>('SELECT count(*)::float8 AS n FROM health_repair_history');
        const items = await tx.query<{ entry: RepairHistoryEntry }>(
          'SELECT entry FROM health_repair_history ORDER BY id DESC LIMIT $1 OFFSET $2',
          [Math.max(0, limit), Math.max(0, offset)],
        );
        return { items: items.rows.map((r) => r.entry), total: total.rows[0]!.n };
      },
      { isolation: 'repeatable read' },
    );
  }

  async markBroken(release: BrokenRelease): Promise<void> {
    await this.db.query(
      `INSERT INTO health_broken_releases (fingerprint, release) VALUES ($1, $2::jsonb)
       ON CONFLICT (fingerprint) DO UPDATE SET release = EXCLUDED.release`,
      [release.fingerprint, JSON.stringify(release)],
    );
  }

  async broken(fingerprint: string): Promise<BrokenRelease | undefined> {
    const rows = await this.db.query<{ release: BrokenRelease }>(
      'SELECT release FROM health_broken_releases WHERE fingerprint = $1',
      [fingerprint],
    );
    return rows.rows[0]?.release;
  }
}
