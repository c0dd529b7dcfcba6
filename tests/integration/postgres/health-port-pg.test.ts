import { after, before } from 'node:test';
import { openPgHealthStore } from '../../../appliance/health/health-pg.store.js';
import { openPgDb } from '../../../appliance/store/pg/index.js';
import { healthPortSuite } from '../../support/health/port-suite.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

// The health port's assertions (tests/support/health/port-suite.ts, also run on LMDB) on PostgreSQL.
let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

healthPortSuite('postgresql', {
  async open() {
    const db = await openPgDb(await server.createDatabase());
    const store = await openPgHealthStore(db);
    return {
      store,
      async close() {
        store.close();
        await db.close();
      },
    };
  },
});
