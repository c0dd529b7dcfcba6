/**
 * The SABnzbd API (at /sabnzbd/api and at /api?mode=) changes things through GET, so it takes the API key only:
 * never the console's cookie (a link or top-level navigation from any site carries our SameSite=Lax cookie),
 * never remembered Basic credentials, and not `auth.login_required: false` either. Every refused call must also
 * have changed nothing. State-changing answers carry no wildcard CORS.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { api, startServer, type TestServer } from '../../support/server.js';

const NZB = '<nzb><file subject="x"><segments><segment bytes="1" number="1">a@b</segment></segments></file></nzb>';
const ADMIN = { username: 'admin', password: 'admin-password' };

let indexer: Server;
let indexerUrl = '';
let indexerHits = 0;

before(async () => {
  indexer = createServer((_req, res) => {
    indexerHits++;
    res.end(NZB);
  });
  await new Promise<void>((r) => indexer.listen(0, '127.0.0.1', r));
  indexerUrl = `http://127.0.0.1:${(indexer.address() as AddressInfo).port}/get.php?id=1`;
});
after(() => indexer?.close());

/** A server with one admin (cookie and key) and two finished jobs in its history and one waiting in its queue. */
async function withServer(loginRequired: boolean, fn: (s: Setup) => Promise<void>): Promise<void> {
  const srv = await startServer({
    config: { auth: { login_required: loginRequired }, sabnzbd: { enabled: true } },
  });
  try {
    // Paused, so nothing moves by itself: a refused `mode=resume` must leave it paused.
    srv.app().importer.runner.pause();
    const reg = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: ADMIN,
    });
    const cookie = (reg.res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const key = reg.body.data!.user.api_key;
    const queue = srv.app().importer.queue;
    for (const name of ['Done.One', 'Done.Two']) {
      const item = await queue.enqueue({ nzb: Buffer.from(NZB), nzbPath: `${name}.nzb`, category: 'tv' });
      await queue.complete(item.id, { targetPath: `/complete/tv/${name}`, fileSize: 1 });
    }
    await queue.enqueue({ nzb: Buffer.from(NZB), nzbPath: 'Waiting.nzb', category: 'tv' });
    await fn({ srv, cookie, key });
  } finally {
    await srv.stop();
  }
}

interface Setup {
  srv: TestServer;
  cookie: string;
  key: string;
}

async function sab(srv: TestServer, path: string, query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.baseUrl}${path}?${query}&output=json`, { headers });
  assert.equal(res.status, 200);
  return {
    body: (await res.json()) as { status?: boolean; error?: string },
    cors: res.headers.get('access-control-allow-origin'),
  };
}

/** Everything a refused call could have changed. */
async function state(srv: TestServer) {
  const app = srv.app();
  const items = (await app.importer.queue.list({ offset: 0, limit: 100 })).items;
  return {
    items: items.map((i) => `${i.nzbPath}:${i.status}:${i.paused ?? false}`).sort(),
    paused: app.importer.runner.paused,
    indexerHits,
  };
}

const STATE_CHANGES = [
  'mode=history&name=delete&value=all',
  'mode=history&name=delete&value=all&del_files=1&del_completed_files=1',
  'mode=queue&name=delete&value=all',
  'mode=queue&name=pause&value=all',
  'mode=resume',
  'mode=warnings&name=clear',
];

test("cross-site GETs with the admin's cookie and no key change nothing, on both paths", () =>
  withServer(true, async ({ srv, cookie, key }) => {
    const before = await state(srv);
    const crossSite = { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
    for (const path of ['/api', '/sabnzbd/api']) {
      for (const query of [...STATE_CHANGES, `mode=addurl&name=${encodeURIComponent(indexerUrl)}`]) {
        const { body, cors } = await sab(srv, path, query, crossSite);
        assert.deepEqual(body, { status: false, error: 'API Key Required' }, `${path}?${query}`);
        assert.equal(cors, null, `${path}?${query} answers without wildcard CORS`);
      }
      // Reading with the cookie alone is refused too: the key is the API's only credential.
      assert.deepEqual((await sab(srv, path, 'mode=queue', { cookie })).body, {
        status: false,
        error: 'API Key Required',
      });
    }
    // The admin's Basic credentials, which a browser may remember, do not count either.
    const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    assert.equal(
      (await sab(srv, '/api', 'mode=history&name=delete&value=all', { authorization: basic })).body.status,
      false,
    );
    assert.deepEqual(await state(srv), before);

    // The key alone does it, on both paths; the answer to a change carries no wildcard CORS, a read keeps SABnzbd's.
    const read = await sab(srv, '/api', `mode=history&apikey=${key}`);
    assert.equal(read.cors, '*');
    const deleted = await sab(srv, '/api', `mode=history&name=delete&value=all&apikey=${key}`);
    assert.deepEqual(deleted.body, { status: true });
    assert.equal(deleted.cors, null);
    assert.notDeepEqual((await state(srv)).items, before.items);
    assert.equal((await sab(srv, '/sabnzbd/api', `mode=resume&apikey=${key}`)).body.status, true);
    assert.equal(srv.app().importer.runner.paused, false);
  }));

test('with login not required the key is still required, and a wrong key is refused', () =>
  withServer(false, async ({ srv, key }) => {
    const before = await state(srv);
    for (const query of STATE_CHANGES) {
      const { body, cors } = await sab(srv, '/sabnzbd/api', query);
      assert.deepEqual(body, { status: false, error: 'API Key Required' }, query);
      assert.equal(cors, null);
      const wrong = await sab(srv, '/api', `${query}&apikey=not-the-key`);
      assert.deepEqual(wrong.body, { status: false, error: 'API Key Incorrect' }, query);
    }
    assert.deepEqual((await sab(srv, '/sabnzbd/api', 'mode=queue')).body, {
      status: false,
      error: 'API Key Required',
    });
    assert.deepEqual(await state(srv), before);
    // `version` and `auth` stay open, as in SABnzbd, with its CORS header.
    const version = await sab(srv, '/sabnzbd/api', 'mode=version');
    assert.equal(version.cors, '*');
    assert.deepEqual(version.body, { version: '4.5.1' });
    assert.deepEqual(
      (await sab(srv, '/sabnzbd/api', `mode=queue&name=delete&value=all&apikey=${key}`)).body.status,
      true,
    );
  }));
