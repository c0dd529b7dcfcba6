/**
 * A leader that does not know it lost the lead (docs/architecture.md, "Several nodes": the fence). Two whole Spools
 * in this process on one real PostgreSQL, importing from real INN through a slow relay: the leader claims two items
 * and imports them; meanwhile the lease epoch moves, as another node's takeover moves it (its lease connection stays
 * healthy, so only the fence can stop it). Its imports go on and try to write their jobs: every write is refused, it
 * says so once and stops leading; the other node takes over and imports both, each job folder once. The real
 * processes (a SIGSTOPped leader) are cluster-takeover.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { innProvider } from '../../support/inn/provider.js';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { SlowRelay } from '../../support/slow-relay.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

let server: PostgresServer;
let inn: InnServer;
let relay: SlowRelay;
before(async () => {
  [server, inn] = await Promise.all([startPostgres(), ensureInn()]);
  relay = new SlowRelay({ host: inn.host, port: inn.port }, 40);
  await relay.start();
});
after(async () => {
  await relay?.stop();
  await server?.stop();
});

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  return waitUntil(what, async () => (await check()) || undefined, { everyMs: 50 });
}

const node = (url: string) =>
  startServer({
    config: {
      auth: { login_required: false },
      metadata: { root_path: './metadata', database_url: url },
      providers: [{ ...innProvider(inn, { max_connections: 2 }), port: relay.port }],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100, max_processor_workers: 2 },
    },
  });

const lines = (srv: TestServer, msg: string) => srv.logs.filter((l) => l.includes(`"msg":"${msg}`));

test('a leader whose lease moved under it, importing claimed items, commits nothing; the new leader imports them', async () => {
  const url = await server.createDatabase();
  const a = await node(url);
  let b: TestServer | undefined;
  try {
    await until('a leads', () => a.app().leadership.role === 'leader');
    b = await node(url);
    const other = b;
    const nzbs: { show: string; nzb: Buffer }[] = [];
    for (const show of ['Fence.One', 'Fence.Two']) {
      const posted = [];
      for (let i = 1; i <= 3; i++)
        posted.push(await inn.postFile(`${show}.Part${i}.mkv`, film(500_000 + i), { articleSize: 100_000 }));
      nzbs.push({ show, nzb: Buffer.from(buildNzb(posted, inn.group, 'Spool <p@spool.test>')) });
    }
    const items = [];
    for (const { show, nzb } of nzbs)
      items.push(await other.app().importer.queue.enqueue({ nzb, nzbPath: `${show}.nzb` }));
    const queue = a.app().importer.queue;
    for (const item of items)
      await until(`a claims ${item.id}`, async () => (await queue.get(item.id))?.status === 'processing');

    // another node's takeover, as the fence sees it: the epoch moves while a's lease connection stays up
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('UPDATE leader_epoch SET epoch = epoch + 1');
    await c.end();
    relay.delayMs = 0;

    await until('a refused', () => lines(a, 'fenced out').length > 0);
    await until('a stops its work', () => lines(a, 'background work stopped').length > 0);
    await until('b leads', () => other.app().leadership.role === 'leader');
    const done = [];
    for (const item of items)
      done.push(
        await until(`b completes ${item.id}`, async () => {
          const got = await other.app().importer.queue.get(item.id);
          return got?.status === 'completed' || got?.status === 'failed' ? got : undefined;
        }),
      );
    for (const d of done) assert.equal(d.status, 'completed', `${d.id}: ${d.errorMessage ?? ''}`);

    assert.equal(lines(a, 'fenced out').length, 1, 'said once');
    assert.deepEqual(lines(a, 'import completed'), [], 'the old leader completed nothing');
    assert.equal(lines(other, 'import completed').length, 2, 'the new leader completed both');
    const vfs = other.app().streaming.vfs;
    for (const [i, d] of done.entries()) {
      const folder = d.targetPath!;
      assert.ok(folder.endsWith(`/${nzbs[i]!.show}`), `${folder}: the job's own name, no "(2)"`);
      assert.deepEqual(
        vfs
          .list(folder)
          .map((n) => n.name)
          .sort(),
        [1, 2, 3].map((p) => `${nzbs[i]!.show}.Part${p}.mkv`),
        'each file once',
      );
    }
    const parent = done[0]!.targetPath!.replace(/\/[^/]+$/, '');
    assert.deepEqual(
      vfs
        .list(parent)
        .map((n) => n.name)
        .sort(),
      nzbs.map((n) => n.show),
      'one job folder per item',
    );
  } finally {
    await b?.stop();
    await a.stop();
  }
});
