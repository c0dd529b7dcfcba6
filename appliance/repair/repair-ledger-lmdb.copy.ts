import { isDeepStrictEqual } from 'node:util';
import type { Key, Store } from '../store/index.js';
import type { PgDb } from '../store/pg/index.js';
import { PgRepairLedger } from './repair-ledger-pg.store.js';
import type { BrakeState, BrokenRelease, RepairHistoryEntry } from './repair-ledger.port.js';
import { LmdbRepairLedger } from './repair-ledger.store.js';

/**
 * The repair ledger from PostgreSQL into an empty LMDB environment (`health-ledger` as repair-ledger.store.ts keeps
 * it): the brake, the history with its ids and the next id, the broken releases; then read back through the LMDB
 * ledger and compared. Returns the number of records.
 */
export async function copyLedgerToLmdb(from: PgDb, to: Store): Promise<number> {
  const pg = new PgRepairLedger(from);
  const brake = (await from.query<{ value: BrakeState }>("SELECT value FROM health_meta WHERE key = 'brake'")).rows[0]
    ?.value;
  const history = (
    await from.query<{ entry: RepairHistoryEntry }>('SELECT entry FROM health_repair_history ORDER BY id')
  ).rows.map((r) => r.entry);
  const broken = (
    await from.query<{ release: BrokenRelease }>('SELECT release FROM health_broken_releases ORDER BY fingerprint')
  ).rows.map((r) => r.release);
  const seq = (
    await from.query<{ v: string; called: boolean }>(
      'SELECT last_value AS v, is_called AS called FROM health_repair_history_ids',
    )
  ).rows[0]!;
  const nextId = Math.max(Number(seq.v) + (seq.called ? 1 : 0), (history.at(-1)?.id ?? 0) + 1);
  const db = to.openDb<unknown, Key>('health-ledger');
  to.transaction(() => {
    if (brake) void db.put(['brake'], brake);
    for (const e of history) void db.put(['h', e.id], e);
    void db.put(['hn'], nextId);
    for (const b of broken) void db.put(['b', b.fingerprint], b);
  });
  const lmdb = new LmdbRepairLedger(to);
  if (!isDeepStrictEqual(await lmdb.brake(), await pg.brake())) throw new Error('health: the repair brake differs');
  const back = await lmdb.history(history.length + 1, 0);
  if (!isDeepStrictEqual(back.items, [...history].reverse())) throw new Error('health: the repair history differs');
  for (const b of broken)
    if (!isDeepStrictEqual(await lmdb.broken(b.fingerprint), b))
      throw new Error(`health: the broken release ${b.fingerprint} differs`);
  return history.length + broken.length + (brake ? 1 : 0);
}
