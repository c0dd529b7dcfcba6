import { isDeepStrictEqual } from 'node:util';
import { migratePg, type CopyToPg, type PgDb } from '../store/pg/index.js';
import { REPAIR_LEDGER_PG_MIGRATIONS } from './repair-ledger-pg.migrations.js';
import { PgRepairLedger } from './repair-ledger-pg.store.js';
import { BRAKE_RELEASED } from './repair-ledger.port.js';
import { readLmdbLedger, type LedgerContents } from './repair-ledger.store.js';

/**
 * The repair ledger's part of moving an install (`spool migrate`): the brake, the history with its ids (the id
 * sequence set past the LMDB ledger's next id, so no id is given twice) and the broken releases, from the LMDB
 * ledger (in either layout: repair-ledger.store.ts `readLmdbLedger`) into the empty PostgreSQL database; then read
 * back through the PostgreSQL ledger and compared; a difference throws.
 */
export const copyRepairLedgerToPg: CopyToPg = async (from, to, progress) => {
  await migratePg(to, { 'repair-ledger': REPAIR_LEDGER_PG_MIGRATIONS });
  const ledger = readLmdbLedger(from);
  progress(`copying ${ledger.history.length} history entries and ${ledger.broken.length} broken releases`);
  await to.tx(async (tx) => {
    if (ledger.brake)
      await tx.query("INSERT INTO repair_ledger_meta (key, value) VALUES ('brake', $1::jsonb)", [
        JSON.stringify(ledger.brake),
      ]);
    for (const e of ledger.history)
      await tx.query('INSERT INTO repair_history (id, entry) VALUES ($1, $2::jsonb)', [e.id, JSON.stringify(e)]);
    const maxId = ledger.history.reduce((m, e) => Math.max(m, e.id), ledger.nextHistoryId - 1);
    await tx.query("SELECT setval('repair_history_ids', $1, $2)", [Math.max(1, maxId), maxId >= 1]);
    for (const b of ledger.broken)
      await tx.query('INSERT INTO repair_broken_releases (fingerprint, release) VALUES ($1, $2::jsonb)', [
        b.fingerprint,
        JSON.stringify(b),
      ]);
  });
  await check(to, ledger);
  const records = ledger.history.length + ledger.broken.length + (ledger.brake ? 1 : 0);
  return [{ scope: 'repair-ledger', records }];
};

/** Reads the ledger back through the PostgreSQL ledger; throws on the first difference. */
async function check(to: PgDb, ledger: LedgerContents): Promise<void> {
  const pg = new PgRepairLedger(to);
  const same = (a: unknown, b: unknown) => isDeepStrictEqual(plain(a), plain(b));
  if (!same(await pg.brake(), ledger.brake ?? BRAKE_RELEASED)) throw new Error('repair-ledger: the brake differs');
  const history = await pg.history(ledger.history.length + 1, 0);
  if (!same(history.items, [...ledger.history].reverse())) throw new Error('repair-ledger: the history differs');
  for (const b of ledger.broken)
    if (!same(await pg.broken(b.fingerprint), b))
      throw new Error(`repair-ledger: the broken release ${b.fingerprint} differs`);
}

/** A value as JSON keeps it (fields set to undefined are absent). */
function plain(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}
