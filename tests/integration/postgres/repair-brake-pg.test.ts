import { after, before } from 'node:test';
import { openPgRepairLedger } from '../../../appliance/repair/repair-ledger-pg.store.js';
import { openPgDb } from '../../../appliance/store/pg/index.js';
import { repairBrakeSuite } from '../../support/repair/brake-suite.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

// The repair ledger's and brake's tests (tests/support/repair/brake-suite.ts, also run on LMDB by
// appliance/repair/repair.brake.test.ts) on the PostgreSQL ledger: a place is a database.
let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

repairBrakeSuite({
  name: 'postgresql',
  place: () => server.createDatabase(),
  async open(url) {
    const db = await openPgDb(url);
    return { ledger: await openPgRepairLedger(db), close: () => db.close() };
  },
  async cleanup() {},
});
