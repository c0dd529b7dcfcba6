/**
 * The read-only role on the real server (docs/console-contract.md §6): every registered route that changes
 * something (the list comes from the router, not from this file) refuses a read-only user's session with 403 in the
 * envelope; every signed-in GET route answers it; WebDAV reads work and WebDAV writes are refused; the SABnzbd API
 * refuses its changes whatever key the user holds. An ordinary user on the same routes is not refused, so the walk
 * would see a route that forgot the rule.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';

/** Routes that take a body-carrying method but only read (RouteOptions.changes false): each one on purpose. */
const READING_POSTS = new Set(['POST /api/user/refresh']);

let srv: TestServer;
let viewer = { cookie: '', apiKey: '', id: '' };
let plain = { cookie: '', apiKey: '', id: '' };

const concrete = (pattern: string) => pattern.replace(/:[^/]+/g, 'x').replace(/\/\*$/, '/x');
const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] as string;

async function signUp(name: string) {
  const r = await api<{ user: { api_key: string; id: string } }>(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: name, password: 'correct horse' },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { cookie: cookieOf(r.res), apiKey: r.body.data!.user.api_key, id: r.body.data!.user.id };
}

/** A call as the browser makes it: the session cookie, the console's own Origin, a JSON body for writes. */
async function call(method: string, path: string, cookie: string) {
  const res = await fetch(srv.baseUrl + path, {
    method,
    headers: { cookie, origin: srv.baseUrl, 'content-type': 'application/json' },
    body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
  });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code };
}

before(async () => {
  srv = await startServer({ config: { sabnzbd: { enabled: true, complete_dir: '/complete' } } });
  const admin = await signUp('admin');
  await api(srv.baseUrl, '/api/config/auth', {
    method: 'PATCH',
    json: { section: 'auth', config: { registration_enabled: true } },
    headers: { 'x-api-key': admin.apiKey },
  });
  viewer = await signUp('viewer');
  plain = await signUp('plain');
  const set = await api<{ role: string; is_admin: boolean }>(srv.baseUrl, `/api/users/${viewer.id}/role`, {
    method: 'PUT',
    json: { role: 'read-only' },
    headers: { 'x-api-key': admin.apiKey },
  });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.deepEqual([set.body.data?.role, set.body.data?.is_admin], ['read-only', false]);
});
after(async () => srv?.stop());

test('the routes that only read despite their method are exactly the deliberate ones', () => {
  const reading = srv
    .app()
    .router.list()
    .flatMap((r) =>
      r.methods
        .filter((m) => !['GET', 'HEAD', '*'].includes(m) && !r.changes.includes(m))
        .map((m) => `${m} ${r.pattern}`),
    );
  assert.deepEqual(reading.sort(), [...READING_POSTS].sort());
});

test('every route that changes something refuses a read-only session with 403', async () => {
  const routes = srv
    .app()
    .router.list()
    .filter((r) => r.access !== 'public');
  const failures: string[] = [];
  let walked = 0;
  for (const route of routes) {
    for (const method of route.changes) {
      const got = await call(method, concrete(route.pattern), viewer.cookie);
      const expected = route.access === 'admin' ? 'ADMIN_REQUIRED' : 'READ_ONLY_USER';
      if (got.status !== 403 || got.code !== expected)
        failures.push(`${method} ${route.pattern} -> ${got.status} ${got.code}`);
      walked++;
    }
  }
  assert.ok(walked > 40, `expected the whole API's changes, walked ${walked}`);
  assert.deepEqual(failures, []);
});

test('an ordinary user is not refused by the read-only rule on the same routes', async () => {
  const failures: string[] = [];
  for (const route of srv.app().router.list()) {
    if (route.access !== 'user') continue;
    for (const method of route.changes) {
      const got = await call(method, concrete(route.pattern), plain.cookie);
      if (got.code === 'READ_ONLY_USER' || got.status === 401)
        failures.push(`${method} ${route.pattern} -> ${got.code}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('a read-only session reads every signed-in GET route', async () => {
  const failures: string[] = [];
  for (const route of srv.app().router.list()) {
    if (route.access !== 'user' || !route.methods.includes('GET')) continue;
    const got = await call('GET', concrete(route.pattern), viewer.cookie);
    if (got.status === 401 || got.status === 403) failures.push(`GET ${route.pattern} -> ${got.status} ${got.code}`);
  }
  assert.deepEqual(failures, []);
  const me = await api<{ name: string; role: string }>(srv.baseUrl, '/api/user', {
    headers: { cookie: viewer.cookie },
  });
  assert.deepEqual([me.body.data?.name, me.body.data?.role], ['viewer', 'read-only']);
});

test('a read-only key of any scope is refused its changes, in the envelope', async () => {
  const res = await api(srv.baseUrl, '/api/queue/completed', {
    method: 'DELETE',
    headers: { 'x-api-key': viewer.apiKey },
  });
  assert.equal(res.status, 403);
  assert.equal(res.body.success, false);
  assert.equal(res.body.error?.code, 'READ_ONLY_USER');
  assert.match(res.body.error?.message ?? '', /read-only/);
});

test('WebDAV: a read-only user lists and reads, and cannot write, delete or make folders', async () => {
  const basic = `Basic ${Buffer.from('viewer:correct horse').toString('base64')}`;
  const list = await fetch(`${srv.baseUrl}/webdav/`, {
    method: 'PROPFIND',
    headers: { authorization: basic, depth: '1' },
  });
  await list.arrayBuffer();
  assert.equal(list.status, 207);
  for (const [method, path] of [
    ['MKCOL', '/webdav/made-by-viewer'],
    ['PUT', '/webdav/made-by-viewer.srt'],
    ['DELETE', '/webdav/nothing-here'],
  ] as const) {
    const res = await fetch(srv.baseUrl + path, {
      method,
      headers: { authorization: basic },
      body: method === 'PUT' ? 'x' : undefined,
    });
    await res.arrayBuffer();
    assert.equal(res.status, 403, `${method} ${path}`);
  }
});

test('the SABnzbd API answers a read-only user reads and refuses its changes', async () => {
  const read = await fetch(`${srv.baseUrl}/sabnzbd/api?mode=queue&output=json&apikey=${viewer.apiKey}`);
  const queue = (await read.json()) as { queue?: unknown; status?: boolean };
  assert.ok(queue.queue, JSON.stringify(queue));
  const del = await fetch(
    `${srv.baseUrl}/sabnzbd/api?mode=queue&name=delete&value=all&output=json&apikey=${viewer.apiKey}`,
  );
  const refused = (await del.json()) as { status?: boolean; error?: string };
  assert.deepEqual(refused, { status: false, error: 'This user is read-only: it changes nothing' });
});
