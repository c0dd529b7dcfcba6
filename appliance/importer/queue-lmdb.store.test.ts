import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { queuePortSuite } from '../../tests/support/queue/queue-port.suite.js';
import { queueReadsSuite } from '../../tests/support/queue/queue-reads.suite.js';
import { openStore, type Store } from '../store/index.js';
import { LmdbQueueStore } from './queue-lmdb.store.js';

// The queue's port (queue.port.ts) on LMDB (the same tests run on PostgreSQL: tests/integration/postgres/queue-pg.test.ts).
let dir: string;
const stores: Store[] = [];
before(() => (dir = mkdtempSync(join(tmpdir(), 'spool-queue-port-'))));
after(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each test its own store, so ids and the runnable order start afresh. */
function fresh(): Promise<LmdbQueueStore> {
  const s = openStore({ rootPath: mkdtempSync(join(dir, 'q-')) });
  stores.push(s);
  return Promise.resolve(new LmdbQueueStore(s));
}

queuePortSuite(fresh);
queueReadsSuite(fresh);
