/**
 * Moving an install (docs/deployment.md, "Moving from LMDB"): a real Spool on LMDB imports NZBs from the real INN
 * and is stopped; `spool migrate` (the real command line) copies its data dir into an empty PostgreSQL database and
 * checks the copy; then a node on that database started on the same data dir (the documented move) and a fresh
 * node serve the same files, byte-exact, to the same user.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import type { ChildServer } from '../../support/child-server.js';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import {
  api,
  davGet,
  davList,
  eventually,
  registerAdmin,
  sabAddFile,
  sha256,
  startNode,
  waitForItem,
} from './cluster.support.js';
import { film } from '../../support/media/film.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let server: PostgresServer;
let inn: InnServer;
const nodes: ChildServer[] = [];

before(async () => {
  [server, inn] = await Promise.all([startPostgres(), ensureInn()]);
});
after(async () => {
  for (const n of nodes) {
    await n.stop();
    n.removeDataDir();
  }
  await server?.stop();
});

test('spool migrate moves an LMDB install; nodes on the database serve the same files to the same users', async (t) => {
  const lmdb = await startNode(inn, null);
  nodes.push(lmdb);
  const apiKey = await registerAdmin(lmdb);
  const files = [
    { name: 'Moved.Movie.2024.mkv', data: film(2_500_000 + 3) },
    { name: 'Moved.Movie.2024.srt', data: randomBytes(3_000) },
  ];
  const posted = [];
  for (const f of files) posted.push(await inn.postFile(f.name, f.data, { articleSize: 300_000 }));
  const id = await sabAddFile(
    lmdb,
    apiKey,
    'Moved.Movie.2024.nzb',
    buildNzb(posted, inn.group, 'Spool <p@spool.test>'),
    'movies',
  );
  const done = await waitForItem(lmdb, apiKey, id);
  assert.equal(done.status, 'completed', done.error_message ?? '');
  const job = done.target_path!;
  assert.equal(await lmdb.stop(), 0);

  const url = await server.createDatabase();
  const cli = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'appliance/main.ts', 'migrate', '--from', lmdb.dataDir, '--to', url],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(cli.status, 0, `${cli.stdout}\n${cli.stderr}`);
  for (const line of cli.stdout.trim().split('\n')) t.diagnostic(line);
  assert.match(cli.stdout, /^done: every domain copied and checked/m);
  for (const scope of ['auth', 'queue', 'tree'])
    assert.match(cli.stdout, new RegExp(`^${scope}: \\d+ records?.*checked$`, 'm'));
  // a second run finds the database no longer empty and changes nothing
  const again = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'appliance/main.ts', 'migrate', '--from', lmdb.dataDir, '--to', url],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(again.status, 1);
  assert.match(again.stderr, /is not empty/);

  const moved = await startNode(inn, url, { via: 'env', dataDir: lmdb.dataDir });
  nodes.push(moved);
  const fresh = await startNode(inn, url, { via: 'config' });
  nodes.push(fresh);
  for (const node of [moved, fresh]) {
    const item = await waitForItem(node, apiKey, id);
    assert.equal(item.target_path, job, 'the queue history moved');
    const names = await eventually('the job on the node', async () => {
      const n = await davList(node, apiKey, job);
      return n.length === files.length ? n : undefined;
    });
    assert.deepEqual(names.sort(), files.map((f) => f.name).sort());
    for (const f of files) {
      const got = await davGet(node, apiKey, `${job}/${f.name}`);
      assert.equal(got.status, 200, f.name);
      assert.equal(sha256(got.body), sha256(f.data), f.name);
    }
    const login = await api(node.baseUrl, '/api/auth/login', {
      method: 'POST',
      json: { username: 'admin', password: 'admin-password' },
    });
    assert.equal(login.status, 200, 'the user moved');
  }
});
