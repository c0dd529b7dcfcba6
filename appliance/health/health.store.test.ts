import { healthStoreSuite } from '../../tests/support/health/store-suite.js';
import { openHealthStore } from './health.store.js';

// The tests live in tests/support/health/store-suite.ts, shared with the PostgreSQL store
// (tests/integration/postgres/health-store-pg.test.ts).
healthStoreSuite({
  stores: {},
  // A store opened again on the same LMDB (a restart).
  reopen: async (h) => openHealthStore(h.store).verdicts,
});
