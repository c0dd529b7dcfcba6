import type { StorageDomain } from '../store/index.js';
import { LATENCY_PG_MIGRATIONS } from './latency-pg.migrations.js';
import { PgLatencyStore } from './latency-pg.store.js';
import type { LatencyStore } from './latency.port.js';
import { copyLatencyToLmdb } from './latency-lmdb.copy.js';
import { copyLatencyToPg } from './latency.copy.js';
import { LmdbLatencyStore } from './latency.store.js';

/** The providers' round-trip history the `provider_latency` check compares with (docs/diagnostics.md). */
export const latencyStorage: StorageDomain<{ latency: LatencyStore }> = {
  scope: 'latency',
  lmdb: ({ local }) => ({ latency: new LmdbLatencyStore(local) }),
  pg: {
    migrations: LATENCY_PG_MIGRATIONS,
    open: ({ db }) => ({ latency: new PgLatencyStore(db) }),
  },
  copy: ({ store, db, progress }) => copyLatencyToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyLatencyToLmdb(db, store, progress),
};
