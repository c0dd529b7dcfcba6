import { after, before } from 'node:test';
import { HEALTH_PG_MIGRATIONS } from '../../../appliance/health/health-pg.migrations.js';
import { PgRepairLedger } from '../../../appliance/repair/repair-ledger-pg.store.js';
import { migratePg, openPgDb } from '../../../appliance/store/pg/index.js';
import { repairBrakeSuite } from '../../support/repair/brake-suite.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

// The repair brake's tests (tests/support/repair/brake-suite.ts, also run on LMDB by
// appliance/repair/repair.brake.test.ts) on the PostgreSQL ledger: a place is a database.
let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

repairBrakeSuite({
  name: 'postgresql',
  place: () => server.createDatabase(),
  async open(url) {
    const db = await openPgDb(url);
    await migratePg(db, { health: HEALTH_PG_MIGRATIONS });
    return { ledger: new PgRepairLedger(db), close: () => db.close() };
  },
  async cleanup() {},
});
