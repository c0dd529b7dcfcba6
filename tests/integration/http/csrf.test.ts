/**
 * Cross-site request forgery on the real server. A page on another port of the same host (or a sibling subdomain)
 * is "same site": the browser sends our SameSite=Lax cookie with its form posts and no-cors fetches. Those can only
 * carry text/plain, form-urlencoded or multipart bodies, and the browser names the page in Origin (or Referer).
 * So: JSON routes take only application/json bodies, and a cookie-signed (or login-free) state change must come
 * from the console's own origin or a configured `auth.trusted_origins` entry. API-key callers are not browsers
 * acting on someone's behalf and need no Origin.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';

let srv: TestServer;
let cookie = '';
let apiKey = '';
const OTHER_PORT = 'http://127.0.0.1:1';
const TRUSTED = 'https://spool.example.test';

const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] as string;

before(async () => {
  srv = await startServer({
    config: { auth: { login_required: true, trusted_origins: [TRUSTED] }, sabnzbd: { enabled: true } },
  });
  const r = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'admin', password: 'admin-password' },
  });
  cookie = cookieOf(r.res);
  apiKey = r.body.data!.user.api_key;
});
after(() => srv?.stop());

async function patchAuth(headers: Record<string, string>, body: string | FormData) {
  const res = await fetch(`${srv.baseUrl}/api/config/auth`, { method: 'PATCH', headers, body });
  const json = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: json.error?.code };
}

const patchJson = JSON.stringify({ section: 'auth', config: { registration_enabled: false } });

test('a JSON route refuses text/plain, form-urlencoded and multipart bodies with 415', async () => {
  const self = srv.baseUrl;
  assert.deepEqual(await patchAuth({ cookie, origin: self, 'content-type': 'text/plain' }, patchJson), {
    status: 415,
    code: 'NOT_JSON',
  });
  assert.deepEqual(
    await patchAuth({ cookie, origin: self, 'content-type': 'application/x-www-form-urlencoded' }, patchJson),
    { status: 415, code: 'NOT_JSON' },
  );
  const form = new FormData();
  form.set('section', 'auth');
  assert.deepEqual(await patchAuth({ cookie, origin: self }, form), { status: 415, code: 'NOT_JSON' });
  // Even with an API key: the body is not JSON, whoever sends it.
  assert.equal((await patchAuth({ 'x-api-key': apiKey, 'content-type': 'text/plain' }, patchJson)).status, 415);
  const ok = await patchAuth({ cookie, origin: self, 'content-type': 'application/json; charset=utf-8' }, patchJson);
  assert.equal(ok.status, 200);
});

test('a cookie-signed state change from another origin is refused, with or without a body', async () => {
  const json = { cookie, 'content-type': 'application/json' };
  assert.deepEqual(await patchAuth({ ...json, origin: OTHER_PORT }, patchJson), {
    status: 403,
    code: 'CROSS_ORIGIN_REFUSED',
  });
  assert.deepEqual(await patchAuth({ ...json, referer: `${OTHER_PORT}/evil.html` }, patchJson), {
    status: 403,
    code: 'CROSS_ORIGIN_REFUSED',
  });
  assert.equal((await patchAuth({ ...json, origin: 'null' }, patchJson)).status, 403);
  // A body-less POST (what a no-cors fetch can send) is refused the same way.
  const regen = await api(srv.baseUrl, '/api/user/api-key/regenerate', {
    method: 'POST',
    headers: { cookie, origin: OTHER_PORT },
  });
  assert.equal(regen.status, 403);
  assert.equal(regen.body.error!.code, 'CROSS_ORIGIN_REFUSED');
  // The console's own origin, a referer from it, and a configured trusted origin pass.
  assert.equal((await patchAuth({ ...json, origin: srv.baseUrl }, patchJson)).status, 200);
  assert.equal((await patchAuth({ ...json, referer: `${srv.baseUrl}/config/auth` }, patchJson)).status, 200);
  assert.equal((await patchAuth({ ...json, origin: TRUSTED }, patchJson)).status, 200);
  // Reads are not state changes.
  const read = await api(srv.baseUrl, '/api/user', { headers: { cookie, origin: OTHER_PORT } });
  assert.equal(read.status, 200);
});

test('API-key callers need no Origin check', async () => {
  const r = await patchAuth({ 'x-api-key': apiKey, 'content-type': 'application/json', origin: OTHER_PORT }, patchJson);
  assert.equal(r.status, 200);
});

test('NZB uploads stay multipart, and need the Origin check when signed in by cookie', async () => {
  const nzb = '<?xml version="1.0"?><nzb xmlns="http://www.newzbin.com/DTD/2003/nzb"></nzb>';
  const send = (origin: string) => {
    const form = new FormData();
    form.set('file', new Blob([nzb]), 'x.nzb');
    return fetch(`${srv.baseUrl}/api/queue/upload`, { method: 'POST', headers: { cookie, origin }, body: form });
  };
  const foreign = await send(OTHER_PORT);
  assert.equal(foreign.status, 403);
  assert.equal(((await foreign.json()) as { error: { code: string } }).error.code, 'CROSS_ORIGIN_REFUSED');
  const own = await send(srv.baseUrl);
  await own.arrayBuffer();
  assert.notEqual(own.status, 403);
  assert.notEqual(own.status, 415);
});

test('the SABnzbd API takes its API key only, never the console cookie', async () => {
  const form = new FormData();
  form.set('name', new Blob(['<nzb/>']), 'x.nzb');
  const res = await fetch(`${srv.baseUrl}/sabnzbd/api?mode=addfile`, {
    method: 'POST',
    headers: { cookie, origin: srv.baseUrl },
    body: form,
  });
  const body = (await res.json()) as { status: boolean; error?: string };
  assert.equal(body.status, false);
  assert.equal(body.error, 'API Key Required');
});

test('with login not required, a state change from another origin is refused too', async () => {
  const open = await startServer({ config: { auth: { login_required: false } } });
  try {
    const res = await fetch(`${open.baseUrl}/api/config/auth`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: OTHER_PORT },
      body: patchJson,
    });
    assert.equal(res.status, 403);
    const mine = await fetch(`${open.baseUrl}/api/config/auth`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: open.baseUrl },
      body: patchJson,
    });
    assert.equal(mine.status, 200);
  } finally {
    await open.stop();
  }
});
