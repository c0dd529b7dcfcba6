import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store/index.js';
import { healthPortSuite } from '../../tests/support/health/port-suite.js';
import { openHealthStore } from './health.store.js';

// The port's assertions, shared with the PostgreSQL store (tests/integration/postgres/health-port-pg.test.ts).
healthPortSuite('lmdb', {
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'spool-health-port-'));
    const store = openStore({ rootPath: dir });
    return {
      store: openHealthStore(store),
      async close() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});
