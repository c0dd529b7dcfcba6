import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { queueServiceSuite } from '../../tests/support/queue/queue-service.suite.js';
import { openStore, type Store } from '../store/index.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';

// The queue service on LMDB (the same tests run on PostgreSQL: tests/integration/postgres/queue-pg.test.ts).
let dir: string;
const stores: Store[] = [];
before(() => (dir = mkdtempSync(join(tmpdir(), 'spool-queue-'))));
after(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each test gets its own databases by living in its own store directory.
queueServiceSuite(async () => {
  const s = openStore({ rootPath: mkdtempSync(join(dir, 'q-')) });
  stores.push(s);
  return new LmdbQueueStore(s);
});
