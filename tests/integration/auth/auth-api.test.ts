import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';

const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] as string;

describe('auth and users over HTTP (login required, registration enabled after the first user)', () => {
  let srv: TestServer;
  let admin: { cookie: string; apiKey: string; id: string };
  let user: { cookie: string; apiKey: string; id: string };

  before(async () => {
    // The test client plays the reverse proxy (X-Forwarded-Proto is believed only from auth.trusted_proxies).
    srv = await startServer({
      config: { auth: { login_required: true, registration_enabled: true, trusted_proxies: ['127.0.0.1'] } },
    });
  });
  after(() => srv.stop());

  test('first registration makes an admin and signs in with an HTTP-only, SameSite=Lax cookie', async () => {
    const status = await api(srv.baseUrl, '/api/auth/registration-status');
    assert.deepEqual(status.body.data, { registration_enabled: true, user_count: 0 });
    const r = await api<{ user: { id: string; is_admin: boolean; api_key: string; provider: string } }>(
      srv.baseUrl,
      '/api/auth/register',
      {
        method: 'POST',
        json: { username: 'admin', email: 'admin@example.com', password: 'admin-password' },
      },
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.data!.user.is_admin, true);
    assert.equal(r.body.data!.user.provider, 'local');
    const setCookie = r.res.headers.get('set-cookie') ?? '';
    assert.match(setCookie, /^spool_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    admin = { cookie: cookieOf(r.res), apiKey: r.body.data!.user.api_key, id: r.body.data!.user.id };
  });

  test('registration validation reports every field with the contract texts', async () => {
    const r = await api(srv.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: { username: 'x', password: 'short', email: 'bad' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error!.code, 'VALIDATION_FAILED');
    const fields = (r.body.error!.details as { field: string; message: string }[])
      .map((d) => `${d.field}: ${d.message}`)
      .sort();
    assert.deepEqual(fields, [
      'email: Email address is invalid',
      'password: Password must be at least 8 characters long',
      'username: Username must be at least 3 characters long',
    ]);
  });

  test('a second user registers as non-admin; a taken name is 409', async () => {
    const r = await api<{ user: { id: string; is_admin: boolean; api_key: string } }>(
      srv.baseUrl,
      '/api/auth/register',
      {
        method: 'POST',
        json: { username: 'bob', password: 'bob-password' },
      },
    );
    assert.equal(r.body.data!.user.is_admin, false);
    user = { cookie: cookieOf(r.res), apiKey: r.body.data!.user.api_key, id: r.body.data!.user.id };
    const dup = await api(srv.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: { username: 'BOB', password: 'bob-password' },
    });
    assert.equal(dup.status, 409);
    assert.match(dup.body.error!.message, /already taken/);
  });

  test('login by name or email; wrong password is 401 with a clear message', async () => {
    const ok = await api<{ user: { name: string; last_login: string } }>(srv.baseUrl, '/api/auth/login', {
      method: 'POST',
      json: { username: 'admin@example.com', password: 'admin-password' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data!.user.name, 'admin');
    assert.ok(ok.body.data!.user.last_login);
    const bad = await api(srv.baseUrl, '/api/auth/login', {
      method: 'POST',
      json: { username: 'admin', password: 'nope-nope' },
    });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.error!.message, 'Invalid username or password');
  });

  test('GET /user shows the own api_key; /users lists users without keys, paged with meta.total', async () => {
    const me = await api<{ name: string; api_key: string }>(srv.baseUrl, '/api/user', {
      headers: { cookie: user.cookie },
    });
    assert.equal(me.body.data!.name, 'bob');
    assert.equal(me.body.data!.api_key, user.apiKey);
    const page = await api<{ name: string; api_key?: string }[]>(srv.baseUrl, '/api/users?limit=1&offset=1', {
      headers: { cookie: admin.cookie },
    });
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.meta, { total: 2, limit: 1, offset: 1 });
    assert.deepEqual(
      page.body.data!.map((u) => u.name),
      ['bob'],
    );
    assert.equal(page.body.data![0]!.api_key, undefined);
    const bad = await api(srv.baseUrl, '/api/users?limit=-1&offset=x', { headers: { cookie: admin.cookie } });
    assert.equal(bad.status, 400);
    assert.equal((bad.body.error!.details as unknown[]).length, 2);
  });

  test('the API key works as X-Api-Key and as ?apikey; a wrong key is 401', async () => {
    const viaHeader = await api<{ name: string }>(srv.baseUrl, '/api/user', { headers: { 'x-api-key': user.apiKey } });
    assert.equal(viaHeader.body.data!.name, 'bob');
    const viaQuery = await api<{ name: string }>(srv.baseUrl, `/api/user?apikey=${user.apiKey}`);
    assert.equal(viaQuery.body.data!.name, 'bob');
    const wrong = await api(srv.baseUrl, '/api/user', {
      headers: { 'x-api-key': 'f'.repeat(32), cookie: user.cookie },
    });
    assert.equal(wrong.status, 401, 'a wrong key does not fall back to the cookie');
  });

  test('HTTP Basic with name and password identifies the user', async () => {
    const basic = `Basic ${Buffer.from('bob:bob-password').toString('base64')}`;
    const ok = await api<{ name: string }>(srv.baseUrl, '/api/user', { headers: { authorization: basic } });
    assert.equal(ok.body.data!.name, 'bob');
    const bad = await api(srv.baseUrl, '/api/user', {
      headers: { authorization: `Basic ${Buffer.from('bob:wrong').toString('base64')}` },
    });
    assert.equal(bad.status, 401);
    assert.equal(
      bad.res.headers.get('www-authenticate'),
      null,
      'no Basic challenge on /api (browsers would pop a dialog)',
    );
  });

  test('roles: anonymous 401, non-admin 403 on admin routes, admin passes', async () => {
    const routes: [string, string, 'user' | 'admin'][] = [
      ['GET', '/api/user', 'user'],
      ['POST', '/api/user/refresh', 'user'],
      ['POST', '/api/user/api-key/regenerate', 'user'],
      ['GET', '/api/users', 'admin'],
      ['PUT', `/api/users/${user.id}/admin`, 'admin'],
      ['POST', '/api/system/restart', 'admin'],
      ['GET', '/api/config', 'admin'],
      ['PATCH', '/api/config/auth', 'admin'],
      ['POST', '/api/config/reload', 'admin'],
    ];
    for (const [method, path, access] of routes) {
      const anon = await api(srv.baseUrl, path, { method });
      assert.equal(anon.status, 401, `${method} ${path} anonymous`);
      assert.equal(anon.body.error!.message, 'Authentication required');
      if (access === 'admin') {
        const plain = await api(srv.baseUrl, path, { method, headers: { cookie: user.cookie } });
        assert.equal(plain.status, 403, `${method} ${path} as non-admin`);
        assert.equal(plain.body.error!.message, 'Administrator privileges required');
      }
    }
    for (const path of ['/api/users', '/api/config', '/api/user']) {
      assert.equal(
        (await api(srv.baseUrl, path, { headers: { cookie: admin.cookie } })).status,
        200,
        `GET ${path} as admin`,
      );
    }
    for (const path of ['/api/auth/config', '/api/auth/registration-status']) {
      assert.equal((await api(srv.baseUrl, path)).status, 200, `${path} is public`);
    }
  });

  test('admin toggles: make admin, remove admin, never the last admin (409)', async () => {
    const put = (id: string, is_admin: unknown) =>
      api<{ is_admin: boolean }>(srv.baseUrl, `/api/users/${id}/admin`, {
        method: 'PUT',
        json: { is_admin },
        headers: { cookie: admin.cookie },
      });
    assert.equal((await put(user.id, true)).body.data!.is_admin, true);
    assert.equal((await put(user.id, false)).body.data!.is_admin, false);
    const last = await put(admin.id, false);
    assert.equal(last.status, 409);
    assert.match(last.body.error!.message, /last administrator/);
    assert.equal((await put(user.id, 'yes')).status, 400);
    assert.equal((await put('nobody', true)).status, 404);
  });

  test('regenerating the API key retires the old one', async () => {
    const r = await api<{ api_key: string }>(srv.baseUrl, '/api/user/api-key/regenerate', {
      method: 'POST',
      headers: { cookie: user.cookie },
    });
    assert.match(r.body.data!.api_key, /^[0-9a-f]{32}$/);
    assert.equal((await api(srv.baseUrl, '/api/user', { headers: { 'x-api-key': user.apiKey } })).status, 401);
    assert.equal((await api(srv.baseUrl, '/api/user', { headers: { 'x-api-key': r.body.data!.api_key } })).status, 200);
  });

  test('refresh re-sends the cookie; behind an https proxy it is Secure', async () => {
    const r = await api(srv.baseUrl, '/api/user/refresh', {
      method: 'POST',
      headers: { cookie: user.cookie, 'x-forwarded-proto': 'https' },
    });
    assert.equal(r.status, 200);
    assert.match(r.res.headers.get('set-cookie') ?? '', /HttpOnly; SameSite=Lax; Secure$/);
  });

  test('logout ends the session on the server and clears the cookie, even twice', async () => {
    const out = await api(srv.baseUrl, '/api/user/logout', { method: 'POST', headers: { cookie: user.cookie } });
    assert.equal(out.status, 200);
    assert.match(out.res.headers.get('set-cookie') ?? '', /^spool_session=; Path=\/; Max-Age=0; HttpOnly/);
    assert.equal(
      (await api(srv.baseUrl, '/api/user', { headers: { cookie: user.cookie } })).status,
      401,
      'old cookie is dead',
    );
    assert.equal(
      (await api(srv.baseUrl, '/api/user/logout', { method: 'POST', headers: { cookie: user.cookie } })).status,
      200,
    );
  });

  test('10 failed logins from one client: the 11th is 429 with Retry-After, even with the right password', async () => {
    // One wrong password for admin was tried above; the limit counts distinct wrong passwords per name and address.
    for (let i = 0; i < 9; i++) {
      const r = await api(srv.baseUrl, '/api/auth/login', {
        method: 'POST',
        json: { username: 'admin', password: `guess-${i}` },
      });
      assert.equal(r.status, 401);
    }
    const locked = await api(srv.baseUrl, '/api/auth/login', {
      method: 'POST',
      json: { username: 'admin', password: 'admin-password' },
    });
    assert.equal(locked.status, 429);
    assert.match(locked.body.error!.message, /Too many failed login attempts\. Try again in \d+ seconds\./);
    assert.ok(Number(locked.res.headers.get('retry-after')) > 0);
  });
});

describe('registration closes after the first user by default', () => {
  test('second registration is 403 and the status says so', async () => {
    const srv = await startServer();
    try {
      await api(srv.baseUrl, '/api/auth/register', {
        method: 'POST',
        json: { username: 'first', password: 'first-password' },
      });
      const status = await api(srv.baseUrl, '/api/auth/registration-status');
      assert.deepEqual(status.body.data, { registration_enabled: false, user_count: 1 });
      const second = await api(srv.baseUrl, '/api/auth/register', {
        method: 'POST',
        json: { username: 'second', password: 'second-password' },
      });
      assert.equal(second.status, 403);
      assert.match(second.body.error!.message, /Registration is closed/);
    } finally {
      await srv.stop();
    }
  });
});

describe('login_required false', () => {
  test('everything is open to anonymous callers, admin routes included', async () => {
    const srv = await startServer({ config: { auth: { login_required: false } } });
    try {
      assert.deepEqual((await api(srv.baseUrl, '/api/auth/config')).body.data, {
        login_required: false,
        password_login: true,
        oidc: null,
      });
      assert.equal((await api(srv.baseUrl, '/api/users')).status, 200);
      assert.equal((await api(srv.baseUrl, '/api/config')).status, 200);
      await api(srv.baseUrl, '/api/auth/register', {
        method: 'POST',
        json: { username: 'owner', password: 'owner-password' },
      });
      const me = await api<{ name: string; is_admin: boolean }>(srv.baseUrl, '/api/user');
      assert.equal(me.status, 200);
      assert.equal(me.body.data!.name, 'owner', 'anonymous acts as the first admin');
    } finally {
      await srv.stop();
    }
  });
});
