/**
 * Security audit of every registered route on the real server: with login required, anonymous callers get 401 on
 * every route that is not deliberately public, ordinary users get 403 on every admin route; the public routes are
 * exactly the ones listed here (a new public route must be added on purpose). With login not required, everything
 * answers without credentials.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';

/** Routes that answer anonymous callers by design (their own auth, if any, is checked in their own tests). */
const PUBLIC_ROUTES = new Set([
  '/ping',
  '/api/auth/config',
  '/api/auth/registration-status',
  '/api/auth/login',
  '/api/auth/register',
  '/api/user/logout',
  // OpenID Connect: the start of a sign-in and the provider's redirect back (tests/e2e/oidc.spec.ts).
  '/api/auth/oidc/login',
  '/api/auth/oidc/callback',
  '/webdav',
  '/webdav/*',
  // Stream links: the signed token in the path is the credential (tests/integration/webdav/stream-links.test.ts).
  '/stream/*',
  '/sabnzbd/api',
  // SABnzbd's own path for the same API (`/api?mode=...`); it checks the key itself.
  '/api',
  // Prometheus: checks the key itself (also as a Bearer token) unless metrics.open (tests/integration/metrics/).
  '/metrics',
]);

let srv: TestServer;
let userKey = '';

const concrete = (pattern: string) => pattern.replace(/:[^/]+/g, 'x').replace(/\/\*$/, '/x');
const methodsOf = (methods: string[]) => (methods.includes('*') ? ['GET'] : methods.filter((m) => m !== 'HEAD'));

async function call(method: string, path: string, key?: string): Promise<number> {
  const res = await fetch(srv.baseUrl + path, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
  });
  await res.arrayBuffer();
  return res.status;
}

before(async () => {
  srv = await startServer();
  const admin = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'admin', password: 'correct horse' },
  });
  const adminKey = admin.body.data!.user.api_key;
  await api(srv.baseUrl, '/api/config/auth', {
    method: 'PATCH',
    json: { section: 'auth', config: { registration_enabled: true } },
    headers: { 'x-api-key': adminKey },
  });
  const user = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'viewer', password: 'correct horse' },
  });
  userKey = user.body.data!.user.api_key;
});
after(async () => srv?.stop());

test('the only public routes are the deliberate ones', () => {
  const routes = srv.app().router.list();
  assert.ok(routes.length > 40, `expected the whole API to be registered, found ${routes.length} routes`);
  const publicOnes = routes.filter((r) => r.access === 'public').map((r) => r.pattern);
  assert.deepEqual([...new Set(publicOnes)].sort(), [...PUBLIC_ROUTES].sort());
});

test('anonymous callers get 401 on every signed-in and admin route', async () => {
  const failures: string[] = [];
  for (const route of srv.app().router.list()) {
    if (route.access === 'public') continue;
    for (const method of methodsOf(route.methods)) {
      const status = await call(method, concrete(route.pattern));
      if (status !== 401) failures.push(`${method} ${route.pattern} -> ${status}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('ordinary users get 403 on every admin route', async () => {
  const failures: string[] = [];
  for (const route of srv.app().router.list()) {
    if (route.access !== 'admin') continue;
    for (const method of methodsOf(route.methods)) {
      const status = await call(method, concrete(route.pattern), userKey);
      if (status !== 403) failures.push(`${method} ${route.pattern} -> ${status}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('WebDAV refuses anonymous callers and asks for Basic credentials', async () => {
  for (const path of ['/webdav', '/webdav/', '/webdav/complete']) {
    const res = await fetch(srv.baseUrl + path, { method: 'PROPFIND', headers: { depth: '1' } });
    assert.equal(res.status, 401, path);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic/);
  }
});

test('with login not required every GET route answers without credentials', async () => {
  const open = await startServer({ config: { auth: { login_required: false } } });
  try {
    const failures: string[] = [];
    for (const route of open.app().router.list()) {
      if (!route.methods.includes('GET') || route.pattern.startsWith('/webdav')) continue;
      const res = await fetch(open.baseUrl + concrete(route.pattern));
      await res.arrayBuffer();
      if (res.status === 401 || res.status === 403) failures.push(`GET ${route.pattern} -> ${res.status}`);
    }
    assert.deepEqual(failures, []);
  } finally {
    await open.stop();
  }
});
