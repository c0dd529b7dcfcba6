import { after, before } from 'node:test';
import { openPgHealthStore, type PgHealthStore } from '../../../appliance/health/health-pg.store.js';
import { openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { healthStoreSuite } from '../../support/health/store-suite.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

// The health store's tests on the whole domain (tests/support/health/store-suite.ts, also run on LMDB by
// appliance/health/health.store.test.ts) with the health store on PostgreSQL.
let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

let db: PgDb | undefined;
const opened: PgHealthStore[] = [];

healthStoreSuite({
  name: 'postgresql',
  stores: {
    async openHealth(_lmdb, events) {
      db = await openPgDb(await server.createDatabase());
      const store = await openPgHealthStore(db, events);
      opened.push(store);
      return store;
    },
  },
  // Another store on the same database (a restart, or another node once it heard the commit).
  async reopen() {
    const store = await openPgHealthStore(db!);
    opened.push(store);
    return store.verdicts;
  },
  async cleanup() {
    for (const s of opened.splice(0)) s.close();
    await db?.close();
    db = undefined;
  },
});
