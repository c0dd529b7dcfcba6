import type { Migration } from '../store/index.js';

/** Where an install kept the ledger before it was repair's own (beside the health records, in health's name). */
export const LEGACY_LEDGER_DB = 'health-ledger';
/** The ledger's LMDB database (repair-ledger.store.ts). */
export const LEDGER_DB = 'repair-ledger';

/** The repair ledger's schema steps on LMDB (scope 'repair-ledger' in the store). */
export const REPAIR_LEDGER_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "the ledger moves from the health store's `health-ledger` database to its own, `repair-ledger`",
    up: (store) => {
      const from = store.openDb(LEGACY_LEDGER_DB);
      const to = store.openDb(LEDGER_DB);
      for (const { key, value } of [...from.getRange({})]) {
        to.putSync(key, value);
        from.removeSync(key);
      }
    },
  },
];
