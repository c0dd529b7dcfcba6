import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { migratePg, openPgDb, PG_LOCKS, type PgMigration } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { waitUntil } from '../../support/wait.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

const steps: PgMigration[] = [
  { version: 1, description: 'a table', up: async (tx) => void (await tx.query('CREATE TABLE t (n integer)')) },
  { version: 2, description: 'a row', up: async (tx) => void (await tx.query('INSERT INTO t VALUES (1)')) },
];

test('migrations run once even when two nodes start together, and a newer schema is refused', async () => {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([openPgDb(url), openPgDb(url)]);
  try {
    await Promise.all([migratePg(a, { demo: steps }), migratePg(b, { demo: steps })]);
    assert.equal((await a.query('SELECT count(*)::int AS n FROM t')).rows[0]?.n, 1);
    await assert.rejects(migratePg(a, { demo: steps.slice(0, 1) }), /newer than this Spool knows/);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('a transaction that throws leaves nothing; one under a lock runs alone', async () => {
  const db = await openPgDb(await server.createDatabase());
  try {
    await db.query('CREATE TABLE c (n integer)');
    await assert.rejects(
      db.tx(async (tx) => {
        await tx.query('INSERT INTO c VALUES (1)');
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal((await db.query('SELECT count(*)::int AS n FROM c')).rows[0]?.n, 0);
    await db.query('INSERT INTO c VALUES (0)');
    // read-modify-write under the lock: 20 increments from concurrent transactions all count
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.tx(
          async (tx) => {
            const n = (await tx.query<{ n: number }>('SELECT n FROM c')).rows[0]!.n;
            await tx.query('UPDATE c SET n = $1', [n + 1]);
          },
          { lock: PG_LOCKS.tree },
        ),
      ),
    );
    assert.equal((await db.query('SELECT n FROM c')).rows[0]?.n, 20);
  } finally {
    await db.close();
  }
});

test('notifications reach every node, and a listener whose connection dies is told it came back', async () => {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([openPgDb(url), openPgDb(url)]);
  try {
    const got: string[] = [];
    let reconnected = 0;
    let ready!: () => void;
    const first = new Promise<void>((r) => (ready = r));
    b.listen(
      'spool_demo',
      (p) => {
        got.push(p);
        ready();
      },
      () => reconnected++,
    );
    // Sent again until heard: the listening connection may not be up yet.
    await waitUntil('the first notification', async () => {
      await a.notify('spool_demo', 'hello');
      await Promise.race([first, new Promise((r) => setTimeout(r, 100))]);
      return got.length > 0;
    });
    assert.equal(got[0], 'hello');
    await a.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'`);
    await waitUntil('the listening connection to come back', () => reconnected > 0, { everyMs: 50 });
    assert.equal(reconnected, 1);
    got.length = 0;
    for (let i = 0; i < 50 && got.length === 0; i++) {
      await a.notify('spool_demo', 'again');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(got.includes('again'));
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('listening() resolves once LISTEN is in place: a notification sent right after is heard', async () => {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([openPgDb(url), openPgDb(url)]);
  try {
    for (let round = 0; round < 5; round++) {
      const got: string[] = [];
      const channel = `spool_ready_${round}`;
      b.listen(channel, (p) => got.push(p));
      assert.equal(await b.listening(), true);
      await a.notify(channel, 'first');
      await waitUntil(`the notification of round ${round}`, () => got.length > 0, { everyMs: 20 });
      assert.deepEqual(got, ['first'], `round ${round}`);
    }
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
