/**
 * Two real Spool processes on one real PostgreSQL (issue 25, docs/deployment.md "Several nodes on PostgreSQL"),
 * importing from the real INN: what one node is given, the other serves. Node A learns the database from its
 * config.yaml, node B from SPOOL_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
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
  sabAddFileNzo,
  sha256,
  startNode,
  waitForItem,
} from './cluster.support.js';
import { film } from '../../support/media/film.js';

let server: PostgresServer;
let inn: InnServer;
let a: ChildServer;
let b: ChildServer;
let apiKey: string;

before(async () => {
  [server, inn] = await Promise.all([startPostgres(), ensureInn()]);
  const url = await server.createDatabase();
  a = await startNode(inn, url, { via: 'config' });
  b = await startNode(inn, url, { via: 'env' });
  apiKey = await registerAdmin(a);
});
after(async () => {
  for (const n of [a, b]) {
    await n?.stop();
    n?.removeDataDir();
  }
  await server?.stop();
});

test('an NZB added through node A (SABnzbd addfile) reads back byte-exact through node B over WebDAV', async () => {
  const files = [
    { name: 'Cluster.Show.S01E01.mkv', data: film(3_000_000 + 17) },
    { name: 'Cluster.Show.S01E01.srt', data: randomBytes(40_000) },
  ];
  const posted = [];
  for (const f of files) posted.push(await inn.postFile(f.name, f.data, { articleSize: 250_000 }));
  const nzb = buildNzb(posted, inn.group, 'Spool Test <poster@spool.test>');
  const { nzo, id } = await sabAddFileNzo(a, apiKey, 'Cluster.Show.S01E01.nzb', nzb);
  const done = await waitForItem(b, apiKey, id);
  assert.equal(done.status, 'completed', done.error_message ?? '');
  assert.equal(done.target_path, '/complete/tv/Cluster.Show.S01E01');
  // B's tree replica catches up on the notification of the commit (the item's status may come first).
  const names = await eventually('the job on node B', async () => {
    const n = await davList(b, apiKey, done.target_path!);
    return n.length === files.length ? n : undefined;
  });
  assert.deepEqual(names.sort(), files.map((f) => f.name).sort());
  for (const f of files) {
    const got = await davGet(b, apiKey, `${done.target_path}/${f.name}`);
    assert.equal(got.status, 200, f.name);
    assert.equal(sha256(got.body), sha256(f.data), f.name);
  }
  // B's SABnzbd API knows the job A took in, under the nzo_id A gave the arr (one salt for every node). Its status
  // is 'Verifying' here, not 'Completed': the symlinks point into a mount no node of this test runs.
  const hist = await fetch(`${b.baseUrl}/sabnzbd/api?mode=history&apikey=${apiKey}&output=json`);
  const slots = ((await hist.json()) as { history: { slots: { nzo_id: string; name: string }[] } }).history.slots;
  assert.deepEqual(
    slots.filter((s) => s.nzo_id === nzo).map((s) => s.name),
    ['Cluster.Show.S01E01'],
  );
});

test('a user created on node A signs in on node B; a session from A is valid on B', async () => {
  const created = await api<{ user: { id: string } }>(a.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'carol', password: 'carol-password' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const sessionFromA = (created.res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const login = await api<{ user: { name: string } }>(b.baseUrl, '/api/auth/login', {
    method: 'POST',
    json: { username: 'carol', password: 'carol-password' },
  });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  assert.equal(login.body.data!.user.name, 'carol');
  const wrong = await api(b.baseUrl, '/api/auth/login', {
    method: 'POST',
    json: { username: 'carol', password: 'not-her-password' },
  });
  assert.equal(wrong.status, 401);
  const me = await api<{ name: string }>(b.baseUrl, '/api/user', { headers: { cookie: sessionFromA } });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  assert.equal(me.body.data!.name, 'carol');
  // signing out on B ends the session on A too
  const out = await api(b.baseUrl, '/api/user/logout', {
    method: 'POST',
    json: {},
    headers: { cookie: sessionFromA, origin: b.baseUrl },
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.equal((await api(a.baseUrl, '/api/user', { headers: { cookie: sessionFromA } })).status, 401);
});
