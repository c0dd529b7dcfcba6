import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store/index.js';
import { repairBrakeSuite } from '../../tests/support/repair/brake-suite.js';
import { openRepairLedger } from './repair-ledger.store.js';

// The tests live in tests/support/repair/brake-suite.ts, shared with the PostgreSQL ledger
// (tests/integration/postgres/repair-brake-pg.test.ts).
const dirs: string[] = [];
repairBrakeSuite({
  async place() {
    const dir = mkdtempSync(join(tmpdir(), 'spool-brake-'));
    dirs.push(dir);
    return dir;
  },
  async open(dir) {
    const store = openStore({ rootPath: dir });
    return { ledger: openRepairLedger(store), close: () => store.close() };
  },
  async cleanup() {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  },
});
