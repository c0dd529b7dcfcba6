/**
 * Named API keys with scopes, over HTTP (docs/security.md, "API keys"): an add-only key adds NZBs over the SABnzbd
 * API and nothing else; a metrics key reads /metrics only; a revoked key is refused on the next call; a key used
 * outside its scope gets a clear error, is logged, and changes nothing.
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
before(async () => {
  indexer = createServer((_req, res) => res.end(NZB));
  await new Promise<void>((r) => indexer.listen(0, '127.0.0.1', r));
  indexerUrl = `http://127.0.0.1:${(indexer.address() as AddressInfo).port}/get.php?id=1`;
});
after(() => indexer?.close());

interface Setup {
  srv: TestServer;
  cookie: string;
  newKey(name: string, scope: string): Promise<{ id: string; secret: string }>;
}

async function withServer(fn: (s: Setup) => Promise<void>): Promise<void> {
  const srv = await startServer({ config: { auth: { login_required: true }, sabnzbd: { enabled: true } } });
  try {
    srv.app().importer.runner.pause();
    const reg = await api(srv.baseUrl, '/api/auth/register', { method: 'POST', json: ADMIN });
    const cookie = (reg.res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const newKey = async (name: string, scope: string) => {
      const made = await api<{ key: { id: string }; secret: string }>(srv.baseUrl, '/api/user/api-keys', {
        method: 'POST',
        json: { name, scope },
        headers: { cookie },
      });
      assert.equal(made.res.status, 200, JSON.stringify(made.body));
      return { id: made.body.data!.key.id, secret: made.body.data!.secret };
    };
    await fn({ srv, cookie, newKey });
  } finally {
    await srv.stop();
  }
}

async function sab(srv: TestServer, path: string, query: string) {
  const res = await fetch(`${srv.baseUrl}${path}?${query}&output=json`);
  assert.equal(res.status, 200);
  return (await res.json()) as { status?: boolean; error?: string; nzo_ids?: string[] };
}

const queued = async (srv: TestServer) => (await srv.app().importer.queue.list({ offset: 0, limit: 100 })).total;
const refusalsLogged = (srv: TestServer) => srv.logs.filter((l) => l.includes('API key refused outside its scope'));

test('an add-only key adds NZBs (addurl, addfile) and is refused for history delete, queue changes and /api', () =>
  withServer(async ({ srv, newKey }) => {
    const { secret } = await newKey('indexer', 'add-only');
    const added = await sab(srv, '/sabnzbd/api', `mode=addurl&name=${encodeURIComponent(indexerUrl)}&apikey=${secret}`);
    assert.equal(added.status, true, JSON.stringify(added));
    const form = new FormData();
    form.append('name', new Blob([NZB], { type: 'application/x-nzb' }), 'Some.Show.S01E01.nzb');
    const upload = await fetch(`${srv.baseUrl}/api?mode=addfile&cat=tv&output=json&apikey=${secret}`, {
      method: 'POST',
      body: form,
    });
    assert.equal(((await upload.json()) as { status: boolean }).status, true);
    assert.equal(await queued(srv), 2);

    const before = await queued(srv);
    for (const query of ['mode=history&name=delete&value=all', 'mode=queue&name=delete&value=all', 'mode=queue']) {
      for (const path of ['/api', '/sabnzbd/api']) {
        const body = await sab(srv, path, `${query}&apikey=${secret}`);
        assert.deepEqual(body, {
          status: false,
          error: 'This API key has scope add-only: it may only add NZBs (addfile, addurl)',
        });
      }
    }
    const consoleApi = await fetch(`${srv.baseUrl}/api/queue`, { headers: { 'x-api-key': secret } });
    assert.equal(consoleApi.status, 403);
    const err = ((await consoleApi.json()) as { error: { code: string; message: string } }).error;
    assert.equal(err.code, 'KEY_SCOPE_REFUSED');
    assert.match(err.message, /scope add-only/);
    assert.equal(await queued(srv), before);
    assert.ok(refusalsLogged(srv).length >= 7, 'every refusal is logged');
  }));

test('a metrics key reads /metrics only; a revoked key is refused at once; keys list their last use', () =>
  withServer(async ({ srv, cookie, newKey }) => {
    const { id, secret } = await newKey('prometheus', 'metrics');
    assert.equal((await fetch(`${srv.baseUrl}/metrics`, { headers: { 'x-api-key': secret } })).status, 200);
    assert.equal(
      (await fetch(`${srv.baseUrl}/metrics`, { headers: { authorization: `Bearer ${secret}` } })).status,
      200,
    );
    for (const path of ['/api/queue', '/api/user', '/api/config']) {
      const res = await fetch(`${srv.baseUrl}${path}`, { headers: { 'x-api-key': secret } });
      assert.equal(res.status, 403, path);
    }
    assert.match((await sab(srv, '/sabnzbd/api', `mode=queue&apikey=${secret}`)).error ?? '', /scope metrics/);

    const listed = await api<Array<{ id: string; last_used_ip: string | null; last_used_at: string | null }>>(
      srv.baseUrl,
      '/api/user/api-keys',
      { headers: { cookie } },
    );
    const shown = listed.body.data!.find((k) => k.id === id)!;
    assert.equal(shown.last_used_ip, '127.0.0.1');
    assert.ok(shown.last_used_at);
    assert.equal(JSON.stringify(listed.body).includes(secret), false, 'the secret is never listed');

    const revoked = await fetch(`${srv.baseUrl}/api/user/api-keys/${id}`, { method: 'DELETE', headers: { cookie } });
    assert.equal(revoked.status, 200);
    assert.equal((await fetch(`${srv.baseUrl}/metrics`, { headers: { 'x-api-key': secret } })).status, 401);
    assert.equal(
      (await fetch(`${srv.baseUrl}/metrics`, { headers: { authorization: `Bearer ${secret}` } })).status,
      401,
    );
  }));

test('a sabnzbd key drives the SABnzbd API but not the console API; a read-only key reads and changes nothing', () =>
  withServer(async ({ srv, newKey }) => {
    const arr = await newKey('radarr', 'sabnzbd');
    assert.equal((await sab(srv, '/sabnzbd/api', `mode=queue&apikey=${arr.secret}`)).status, undefined);
    assert.deepEqual(await sab(srv, '/sabnzbd/api', `mode=history&name=delete&value=all&apikey=${arr.secret}`), {
      status: true,
    });
    assert.equal((await fetch(`${srv.baseUrl}/api/queue`, { headers: { 'x-api-key': arr.secret } })).status, 403);
    assert.equal(
      (await fetch(`${srv.baseUrl}/metrics`, { headers: { authorization: `Bearer ${arr.secret}` } })).status,
      403,
    );

    const reader = await newKey('dashboard', 'read-only');
    assert.equal((await fetch(`${srv.baseUrl}/api/queue`, { headers: { 'x-api-key': reader.secret } })).status, 200);
    const change = await fetch(`${srv.baseUrl}/api/user/api-keys`, {
      method: 'POST',
      headers: { 'x-api-key': reader.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'more', scope: 'full' }),
    });
    assert.equal(change.status, 403);
    assert.match(
      (await sab(srv, '/api', `mode=queue&name=delete&value=all&apikey=${reader.secret}`)).error ?? '',
      /scope read-only/,
    );
  }));

test('bad input: an unknown scope or an empty name is refused with a field message', () =>
  withServer(async ({ srv, cookie }) => {
    const res = await api<unknown>(srv.baseUrl, '/api/user/api-keys', {
      method: 'POST',
      json: { name: '', scope: 'everything' },
      headers: { cookie },
    });
    assert.equal(res.res.status, 400);
    const text = JSON.stringify(res.body);
    assert.match(text, /Name is required/);
    assert.match(text, /Scope must be one of full, sabnzbd, add-only, metrics, read-only/);
  }));
