import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

/**
 * The health domain's own tests (checks, manual and scheduled order, repairs, the brake's holds, the announced
 * events) run again with the health store on PostgreSQL: tests/support/health/harness.ts opens a PostgreSQL health
 * store in a new database of this server for every harness when SPOOL_TEST_HEALTH_PG names it.
 * (health.tiers.test.ts waits on LMDB's timing between clock steps and health.start.test.ts counts LMDB reads:
 * they run on LMDB only; health.store.test.ts runs on both through tests/support/health/store-suite.ts.)
 */
const FILES = [
  'appliance/health/health.service.test.ts',
  'appliance/health/health.check-events.test.ts',
  'appliance/repair/repair.loop.test.ts',
  'appliance/repair/repair.holds.test.ts',
];

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

// Four test files in one child run: the cap is theirs together (under the runner's 15 minutes of silence,
// scripts/test.mjs), and a wait of one of them may take up to HUNG_RUN_MS before it fails naming what it waited for
// (tests/support/wait.ts); the cap only stops a hung run.
test('the health domain tests pass with the health store on PostgreSQL', { timeout: 10 * 60_000 }, async () => {
  // A test run of its own (not a child of this one's runner, which NODE_TEST_CONTEXT would make it).
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=tap', ...FILES],
    { env: { ...env, SPOOL_TEST_HEALTH_PG: server.urlOf('postgres') }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const failed = out.split('\n').filter((l) => l.startsWith('not ok'));
  assert.deepEqual(failed, [], out.slice(-4000));
  assert.equal(code, 0, out.slice(-4000));
  const passed = Number(/^# pass (\d+)/m.exec(out)?.[1] ?? 0);
  assert.ok(passed >= 20, `the domain's tests ran (${passed} passed)`);
});
