/**
 * Two whole Spools in this process on one real PostgreSQL (each with its own data dir): one leads and alone runs the
 * import runner; an NZB queued on the follower wakes the leader at once (the queue's `spool_queue` notification; the
 * interval is far longer than the test); when the leader stops, the other leads within the lease's retry interval
 * and imports in its turn. The two-process tests (a killed leader, WebDAV across nodes) are cluster*.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';

let pg: PostgresServer;
before(async () => (pg = await startPostgres()));
after(() => pg?.stop());

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await waitUntil(what, check, { everyMs: 20 });
}

const node = (url: string) =>
  startServer({
    config: {
      auth: { login_required: false },
      metadata: { root_path: './metadata', database_url: url },
      // an idle runner looks again only after 5 minutes: anything sooner is a wake
      import: { queue_processing_interval_seconds: 300 },
    },
  });

/** An NZB that cannot be parsed: its import fails at once, without a provider. */
const broken = (n: number) => Buffer.from(`<nzb-broken>${n}`);

const startedImports = (srv: TestServer) => srv.logs.filter((l) => l.includes('import started')).length;

test('one node leads and alone imports, woken by an NZB queued on the other; stopping it hands the lead over', async () => {
  const url = await pg.createDatabase();
  const a = await node(url);
  let b: TestServer | undefined;
  try {
    await until(() => a.app().leadership.role === 'leader', 'the first node leads');
    b = await node(url);
    const follower = b;
    assert.equal(follower.app().leadership.role, 'follower');

    const first = await follower.app().importer.queue.enqueue({ nzb: broken(1), nzbPath: 'one.nzb' });
    await until(
      async () => (await a.app().importer.queue.get(first.id))?.status === 'failed',
      'the leader imported it',
    );
    assert.equal(startedImports(a), 1);
    assert.equal(startedImports(follower), 0, 'the follower claims nothing');

    await a.stop();
    await until(() => follower.app().leadership.role === 'leader', 'the other node leads');
    const second = await follower.app().importer.queue.enqueue({ nzb: broken(2), nzbPath: 'two.nzb' });
    await until(
      async () => (await follower.app().importer.queue.get(second.id))?.status === 'failed',
      'the new leader imported it',
    );
    assert.equal(startedImports(follower), 1);
  } finally {
    await b?.stop();
    await a.stop();
  }
});

test("SABnzbd's pause asked of the follower holds the leader's imports back; its resume lets them go", async () => {
  const url = await pg.createDatabase();
  const a = await node(url);
  let b: TestServer | undefined;
  try {
    await until(() => a.app().leadership.role === 'leader', 'the first node leads');
    b = await node(url);
    const follower = b.app();
    follower.importer.runner.pause();
    await until(() => a.app().importer.runner.paused, 'the leader paused');
    const item = await follower.importer.queue.enqueue({ nzb: broken(3), nzbPath: 'held.nzb' });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await follower.importer.queue.get(item.id))?.status, 'pending', 'held back while paused');
    follower.importer.runner.resume();
    await until(async () => (await follower.importer.queue.get(item.id))?.status === 'failed', 'imported on resume');
    assert.equal(a.app().importer.runner.paused, false);
    assert.equal(startedImports(a), 1);
  } finally {
    await b?.stop();
    await a.stop();
  }
});
