import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../store/index.js';
import { latencyStoreTests } from '../../tests/support/diagnostics/latency-store-tests.js';
import { LmdbLatencyStore } from './latency.store.js';

// The round-trip history on real LMDB: a restart is the environment closed and opened again on the same folder.
latencyStoreTests(async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-latency-'));
  let store: Store = openStore({ rootPath: root });
  return {
    store: new LmdbLatencyStore(store),
    async reopen() {
      await store.close();
      store = openStore({ rootPath: root });
      return new LmdbLatencyStore(store);
    },
    async close() {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
});
