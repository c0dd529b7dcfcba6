import type { StorageDomain } from '../store/index.js';
import { REPAIR_LEDGER_PG_MIGRATIONS } from './repair-ledger-pg.migrations.js';
import { PgRepairLedger } from './repair-ledger-pg.store.js';
import type { RepairLedger } from './repair-ledger.port.js';
import { copyRepairLedgerToLmdb } from './repair-ledger-lmdb.copy.js';
import { copyRepairLedgerToPg } from './repair-ledger.copy.js';
import { openRepairLedger } from './repair-ledger.store.js';

/**
 * The repair ledger (docs/health.md "The repair brake", "Broken releases"): the brake's state, the repair history,
 * the releases a verdict found broken. Its own LMDB database and PostgreSQL tables; an install that kept it beside
 * the health records has it moved by the first step of each backend's migrations.
 */
export const repairLedgerStorage: StorageDomain<{ repairLedger: RepairLedger }> = {
  scope: 'repair-ledger',
  lmdb: ({ local }) => ({ repairLedger: openRepairLedger(local) }),
  pg: {
    migrations: REPAIR_LEDGER_PG_MIGRATIONS,
    open: ({ db }) => ({ repairLedger: new PgRepairLedger(db) }),
  },
  copy: ({ store, db, progress }) => copyRepairLedgerToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyRepairLedgerToLmdb(db, store, progress),
};
