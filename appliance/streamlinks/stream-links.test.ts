import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store/index.js';
import { streamLinkStoreTests } from '../../tests/support/streamlinks/stream-link-store-tests.js';
import { openStreamLinkStore } from './stream-links.store.js';

// The tests through the storage port, on LMDB (the same ones run on PostgreSQL: tests/integration/postgres/).
streamLinkStoreTests(async () => {
  const root = mkdtempSync(join(tmpdir(), 'spool-links-'));
  const store = openStore({ rootPath: root });
  return {
    store: openStreamLinkStore(store),
    close: async () => {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
});
