/**
 * The fence of the leader lease (appliance/store/pg/leader-fence.ts) against a real PostgreSQL: a write of a term
 * whose lease moved is refused in its own transaction (nothing of it commits); a new leader's epoch waits for a fenced
 * transaction in flight, which commits before it; a leader-only write (the runner's claim) is refused on a node that
 * does not lead. The two-process case (a SIGSTOPped leader with claimed items) is cluster-takeover.test.ts.
 */
import assert from 'node:assert/strict';
import { AsyncResource } from 'node:async_hooks';
import { after, before, test } from 'node:test';
import { FencedOut } from '../../../appliance/errors/fenced-out.js';
import { openPgQueue } from '../../../appliance/importer/queue-pg.store.js';
import { QueueService } from '../../../appliance/importer/queue.service.js';
import type { QueueRecord } from '../../../appliance/importer/queue.types.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { LeaderLease, openPgDb, PG_LOCKS, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { waitUntil } from '../../support/wait.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

const RETRY_MS = 100;

async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  return waitUntil(what, async () => (await check()) || undefined, { everyMs: 10 });
}

/** Two nodes (a pool and a lease each) on one database, and a table of counters to write. */
async function twoNodes() {
  const url = await server.createDatabase();
  const dbs = await Promise.all([openPgDb(url), openPgDb(url)]);
  const [a, b] = dbs as [PgDb, PgDb];
  await a.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
  await a.query('INSERT INTO counters VALUES (1, 0)');
  const logs = [memoryLogger(), memoryLogger()];
  const leases = dbs.map(
    (db, i) => new LeaderLease(db, { nodeId: `node-${i}`, logger: logs[i]!, retryMs: RETRY_MS, heartbeatMs: 200 }),
  ) as [LeaderLease, LeaderLease];
  return {
    a,
    b,
    leaseA: leases[0],
    leaseB: leases[1],
    logA: logs[0]!,
    async counter(): Promise<{ n: number; xmin: string }> {
      const { rows } = await b.query<{ n: number; xmin: string }>('SELECT n, xmin::text FROM counters WHERE id = 1');
      return rows[0]!;
    },
    /** Ends the leader's lease session from the server's side (as its silence would), so the other node takes it. */
    async endLeaseOf(): Promise<void> {
      const { rows } = await b.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND granted`,
        [PG_LOCKS.leader],
      );
      await b.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    },
    async close() {
      await Promise.all(leases.map((l) => l.close()));
      await Promise.all(dbs.map((db) => db.close()));
    },
  };
}

/** A function running its argument inside the term `lease` leads in now (what gateWork gives the leader's work). */
const termOf = (lease: LeaderLease) =>
  lease.runAsLeader(() => AsyncResource.bind(<T>(work: () => Promise<T>): Promise<T> => work()));

const bump = (db: PgDb) => db.query('UPDATE counters SET n = n + 1 WHERE id = 1');

test("a write of the leader's work is refused, in its own transaction, once another node took the lease", async () => {
  const nodes = await twoNodes();
  try {
    nodes.leaseA.start();
    await until(() => nodes.leaseA.role === 'leader', 'a leads');
    const inTermOfA = termOf(nodes.leaseA);
    await inTermOfA(() => bump(nodes.a));
    await inTermOfA(() => nodes.a.tx((tx) => tx.query('UPDATE counters SET n = n + 10 WHERE id = 1')));
    const before = await nodes.counter();
    assert.equal(before.n, 11, 'the leader writes while its epoch holds');

    nodes.leaseB.start();
    await nodes.endLeaseOf();
    await until(() => nodes.leaseB.role === 'leader', 'b leads');
    // a's work goes on as if it still led (a stopped process, woken, does so until it notices)
    await assert.rejects(
      inTermOfA(() => bump(nodes.a)),
      FencedOut,
    );
    await assert.rejects(
      inTermOfA(() =>
        nodes.a.tx(async (tx) => {
          await tx.query('UPDATE counters SET n = n + 100 WHERE id = 1');
          return 'committed';
        }),
      ),
      (err: unknown) => err instanceof FencedOut && err.epoch === 1 && err.current === 2,
    );
    assert.deepEqual(await nodes.counter(), before, 'nothing of either write committed: the row is the same version');
    // outside the leader's work a node writes as before (the console, WebDAV, its own counters)
    await bump(nodes.a);
    assert.equal((await nodes.counter()).n, 12);
    // the new leader's work writes
    await termOf(nodes.leaseB)(() => bump(nodes.b));
    assert.equal((await nodes.counter()).n, 13);
    assert.equal(nodes.logA.lines.filter((l) => l.includes('fenced out')).length, 1, 'said once per term');
  } finally {
    await nodes.close();
  }
});

test("a new leader's epoch waits for a fenced transaction in flight, which commits before the lead moves", async () => {
  const nodes = await twoNodes();
  try {
    nodes.leaseA.start();
    await until(() => nodes.leaseA.role === 'leader', 'a leads');
    const inTermOfA = termOf(nodes.leaseA);
    let finish: () => void = () => undefined;
    const held = new Promise<void>((r) => (finish = r));
    let wrote: () => void = () => undefined;
    const written = new Promise<void>((r) => (wrote = r));
    const inFlight = inTermOfA(() =>
      nodes.a.tx(async (tx) => {
        await tx.query('UPDATE counters SET n = n + 1 WHERE id = 1');
        wrote();
        await held;
      }),
    );
    await written;
    nodes.leaseB.start();
    await nodes.endLeaseOf();
    // b holds the lock but its epoch waits on a's share lock of the epoch row
    await until(async () => {
      const { rows } = await nodes.b.query(
        `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO leader_epoch%'`,
      );
      return rows.length > 0;
    }, "b's epoch waiting");
    assert.equal(nodes.leaseB.role, 'follower', 'b does not lead before its epoch is the database’s');
    finish();
    await inFlight;
    await until(() => nodes.leaseB.role === 'leader', 'b leads');
    assert.equal((await nodes.counter()).n, 1, "a's transaction, begun before the move, committed");
    await assert.rejects(
      inTermOfA(() => bump(nodes.a)),
      FencedOut,
    );
    assert.equal((await nodes.counter()).n, 1);
  } finally {
    await nodes.close();
  }
});

test("the runner's claim is refused on a node that does not lead, and taken by the one that does", async () => {
  const nodes = await twoNodes();
  try {
    const [queueA, queueB] = await Promise.all([openPgQueue(nodes.a), openPgQueue(nodes.b)]);
    // queued through b (any node queues: not the leader's work)
    const item = await new QueueService(queueB, () => ({ maxRetries: 0 })).enqueue({
      nzb: Buffer.from('<nzb><file subject="x"></file></nzb>'),
      nzbPath: 'one.nzb',
    });
    nodes.leaseA.start();
    await until(() => nodes.leaseA.role === 'leader', 'a leads');
    nodes.leaseB.start();
    await new Promise((r) => setTimeout(r, RETRY_MS * 3)); // b tried, and follows
    assert.equal(nodes.leaseB.role, 'follower');
    const claim = (r: QueueRecord): QueueRecord => ({ ...r, status: 'processing' });
    await assert.rejects(queueB.claimNext(Date.now(), claim), FencedOut);
    const claimed = await queueA.claimNext(Date.now(), claim);
    assert.equal(claimed?.id, item.id);
  } finally {
    await nodes.close();
  }
});
