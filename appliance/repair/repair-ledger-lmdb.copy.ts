import { isDeepStrictEqual } from 'node:util';
import type { Key } from '../store/index.js';
import type { CopyToLmdb } from '../store/pg/index.js';
import { LEDGER_DB } from './repair-ledger.migrations.js';
import { PgRepairLedger } from './repair-ledger-pg.store.js';
import type { BrakeState, BrokenRelease, RepairHistoryEntry } from './repair-ledger.port.js';
import { openRepairLedger } from './repair-ledger.store.js';

/**
 * The repair ledger the other way (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy): the brake, the
 * history with its ids and the next id past PostgreSQL's sequence, the broken releases, into the empty
 * `repair-ledger` database as repair-ledger.store.ts keeps it (at this Spool's ledger schema); then read back
 * through the LMDB ledger and compared with PostgreSQL's.
 */
export const copyRepairLedgerToLmdb: CopyToLmdb = async (from, to, progress) => {
  const lmdb = openRepairLedger(to);
  const pg = new PgRepairLedger(from);
  const brake = (await from.query<{ value: BrakeState }>("SELECT value FROM repair_ledger_meta WHERE key = 'brake'"))
    .rows[0]?.value;
  const history = (
    await from.query<{ entry: RepairHistoryEntry }>('SELECT entry FROM repair_history ORDER BY id')
  ).rows.map((r) => r.entry);
  const broken = (
    await from.query<{ release: BrokenRelease }>('SELECT release FROM repair_broken_releases ORDER BY fingerprint')
  ).rows.map((r) => r.release);
  const seq = (
    await from.query<{ v: string; called: boolean }>(
      'SELECT last_value AS v, is_called AS called FROM repair_history_ids',
    )
  ).rows[0]!;
  const nextId = Math.max(Number(seq.v) + (seq.called ? 1 : 0), (history.at(-1)?.id ?? 0) + 1);
  progress(`copying ${history.length} history entries and ${broken.length} broken releases`);
  const db = to.openDb<unknown, Key>(LEDGER_DB);
  to.transaction(() => {
    if (brake) void db.put(['brake'], brake);
    for (const e of history) void db.put(['h', e.id], e);
    void db.put(['hn'], nextId);
    for (const b of broken) void db.put(['b', b.fingerprint], b);
  });
  if (!isDeepStrictEqual(await lmdb.brake(), await pg.brake())) throw new Error('repair-ledger: the brake differs');
  const back = await lmdb.history(history.length + 1, 0);
  if (!isDeepStrictEqual(back.items, [...history].reverse())) throw new Error('repair-ledger: the history differs');
  for (const b of broken)
    if (!isDeepStrictEqual(await lmdb.broken(b.fingerprint), b))
      throw new Error(`repair-ledger: the broken release ${b.fingerprint} differs`);
  return [{ scope: 'repair-ledger', records: history.length + broken.length + (brake ? 1 : 0) }];
};
