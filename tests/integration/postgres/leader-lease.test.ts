/**
 * The leader lease (appliance/store/pg/leader-lease.ts) against a real PostgreSQL: one of two nodes leads; when its
 * lease connection is killed, or it gives the lease up, the other takes over at a following attempt; the two
 * never lead at once.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { LeaderLease, openPgDb, PG_LOCKS, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

const RETRY_MS = 300;
const HEARTBEAT_MS = 300;

/**
 * Waits for `check` (a wait that never ends fails with the test's timeout); how long it took goes to the test's
 * diagnostics as `what`: a speed is a figure for `npm run bench`, never an assertion on a busy machine.
 */
async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  t?: { diagnostic(message: string): void },
): Promise<number> {
  const from = Date.now();
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
  const ms = Date.now() - from;
  t?.diagnostic(`${what} after ${ms} ms`);
  return ms;
}

/** Two nodes on one database, each with its own pool and lease; records any moment both lead. */
async function twoNodes(url: string) {
  const dbs: PgDb[] = await Promise.all([openPgDb(url), openPgDb(url)]);
  const leases = dbs.map(
    (db, i) =>
      new LeaderLease(db, {
        nodeId: `node-${i}`,
        logger: memoryLogger(),
        retryMs: RETRY_MS,
        heartbeatMs: HEARTBEAT_MS,
      }),
  );
  const overlaps: string[] = [];
  const check = () => {
    if (leases.every((l) => l.role === 'leader')) overlaps.push(new Date().toISOString());
  };
  for (const l of leases) l.onChange(check);
  const sampler = setInterval(check, 5);
  const [a, b] = leases as [LeaderLease, LeaderLease];
  return {
    a,
    b,
    overlaps,
    /** The backend holding the leader lock now (the lease connection of whichever node leads). */
    async holderPid(): Promise<number | undefined> {
      const { rows } = await dbs[1]!.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND granted`,
        [PG_LOCKS.leader],
      );
      return rows[0]?.pid;
    },
    /** Ends a backend from the server's side, as an admin or a dead network would. */
    async terminate(pid: number): Promise<void> {
      await dbs[1]!.query('SELECT pg_terminate_backend($1)', [pid]);
    },
    async close() {
      clearInterval(sampler);
      await Promise.all(leases.map((l) => l.close()));
      await Promise.all(dbs.map((db) => db.close()));
    },
  };
}

test('one node leads; its lease connection killed, it demotes and the other leads; never both at once', async (t) => {
  const nodes = await twoNodes(await server.createDatabase());
  try {
    nodes.a.start();
    await until(() => nodes.a.role === 'leader', 'a leads');
    nodes.b.start();
    // b keeps trying, and keeps failing, while a holds the lease
    await new Promise((r) => setTimeout(r, RETRY_MS * 4));
    assert.equal(nodes.b.role, 'follower');
    const pid = await nodes.holderPid();
    assert.ok(pid, 'the leader holds the advisory lock on a backend');
    await nodes.terminate(pid);
    await until(() => nodes.a.role === 'follower', 'a demoted', t);
    await until(() => nodes.b.role === 'leader', 'b led', t);
    // a tries again and stays a follower while b leads
    await new Promise((r) => setTimeout(r, RETRY_MS * 4));
    assert.equal(nodes.a.role, 'follower');
    assert.notEqual(await nodes.holderPid(), pid);
    assert.deepEqual(nodes.overlaps, [], 'never two leaders at once');
  } finally {
    await nodes.close();
  }
});

test('a node that gives the lease up (its stop) hands it to the other; they never lead together', async () => {
  const nodes = await twoNodes(await server.createDatabase());
  try {
    nodes.a.start();
    await until(() => nodes.a.role === 'leader', 'a leads');
    nodes.b.start();
    await new Promise((r) => setTimeout(r, RETRY_MS * 2));
    await nodes.a.close();
    assert.equal(nodes.a.role, 'follower');
    await until(() => nodes.b.role === 'leader', 'b leads');
    assert.deepEqual(nodes.overlaps, []);
  } finally {
    await nodes.close();
  }
});

test('a node finding the lock held waits as a follower and leads once it is free', async () => {
  const url = await server.createDatabase();
  const db = await openPgDb(url);
  const blocker = await db.connect();
  const lease = new LeaderLease(db, { nodeId: 'late', logger: memoryLogger(), retryMs: RETRY_MS });
  try {
    // someone else holds the lock: this node waits as a follower
    await blocker.query('SELECT pg_advisory_lock($1)', [PG_LOCKS.leader]);
    lease.start();
    await new Promise((r) => setTimeout(r, RETRY_MS * 3));
    assert.equal(lease.role, 'follower');
    await blocker.query('SELECT pg_advisory_unlock($1)', [PG_LOCKS.leader]);
    await until(() => lease.role === 'leader', 'leads once the lock is free');
  } finally {
    await lease.close();
    await blocker.end();
    await db.close();
  }
});
