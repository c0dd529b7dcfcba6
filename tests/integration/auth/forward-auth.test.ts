/**
 * Forward auth behind a real nginx (tests/support/nginx.ts, Authelia's auth_request pattern): the forwarded user
 * signs in without a password, a groups header maps to a role, the same header sent directly or through a proxy
 * not in `auth.trusted_proxies` is ignored, and a header naming two users is refused, logged, and signs nobody in.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startNginx } from '../../support/nginx.js';
import { startServer, type TestServer } from '../../support/server.js';

/** The SSO server: who is signed in comes from the test's `x-test-sso` header (`name` or `name;group,group`). */
let sso: Server;
let ssoPort = 0;
before(async () => {
  sso = createServer((req, res) => {
    const who = req.headers['x-test-sso'];
    if (typeof who !== 'string') return void res.writeHead(401).end();
    const [user = '', groups] = who.split(';');
    res.writeHead(200, { 'Remote-User': user, ...(groups !== undefined ? { 'Remote-Groups': groups } : {}) }).end();
  });
  await new Promise<void>((r) => sso.listen(0, '127.0.0.1', r));
  ssoPort = (sso.address() as AddressInfo).port;
});
after(() => sso?.close());

const FORWARD = {
  forward_user_header: 'Remote-User',
  forward_groups_header: 'Remote-Groups',
  forward_admin_groups: ['admins'],
};

async function withProxy(
  trusted: string[],
  fn: (srv: TestServer, proxy: string) => Promise<void>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const auth = { login_required: true, trusted_proxies: trusted, ...FORWARD, ...extra };
  const srv = await startServer({ config: { auth } });
  const nginx = await startNginx(Number(new URL(srv.baseUrl).port), ssoPort);
  try {
    await fn(srv, nginx.baseUrl);
  } finally {
    await nginx.stop();
    await srv.stop();
  }
}

async function get(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: { name: string; is_admin: boolean; role: string };
      error?: { code: string; message: string };
    },
  };
}

test('through the trusted proxy the forwarded user signs in without a password; groups map to admin or user', () =>
  withProxy(['127.0.0.2'], async (srv, proxy) => {
    const alice = await get(`${proxy}/api/user`, { 'x-test-sso': 'alice' });
    assert.equal(alice.status, 200, JSON.stringify(alice.body));
    assert.equal(alice.body.data?.name, 'alice');
    assert.equal(alice.body.data?.is_admin, false);

    const bob = await get(`${proxy}/api/user`, { 'x-test-sso': 'bob;family,admins' });
    assert.equal(bob.body.data?.is_admin, true);
    assert.equal((await get(`${proxy}/api/users`, { 'x-test-sso': 'bob;family,admins' })).status, 200);
    // Out of the admin group at the SSO: a plain user on the next request.
    assert.equal((await get(`${proxy}/api/users`, { 'x-test-sso': 'bob;family' })).status, 403);
    assert.equal((await get(`${proxy}/api/users`, { 'x-test-sso': 'alice;users' })).status, 403);

    // The same header sent straight to Spool (from 127.0.0.1, not a trusted proxy) is ignored.
    const direct = await get(`${srv.baseUrl}/api/user`, { 'remote-user': 'bob', 'remote-groups': 'admins' });
    assert.equal(direct.status, 401);
    assert.equal(direct.body.error?.code, 'AUTH_REQUIRED');
  }));

test('a forwarded header with two values is refused with a clear error, logged, and signs nobody in', () =>
  withProxy(['127.0.0.2'], async (srv, proxy) => {
    const two = await get(`${proxy}/api/user`, { 'x-test-sso': 'alice, mallory;admins' });
    assert.equal(two.status, 401);
    assert.equal(two.body.error?.code, 'FORWARDED_USER_INVALID');
    assert.match(two.body.error?.message ?? '', /Remote-User header must name exactly one user/);
    assert.ok(srv.logs.some((l) => l.includes('forwarded user refused')));
    assert.equal(await srv.app().auth.users.count(), 0, 'nobody was created');
  }));

test('through a proxy not in auth.trusted_proxies the header is ignored', () =>
  withProxy(['127.0.0.3'], async (srv, proxy) => {
    const res = await get(`${proxy}/api/user`, { 'x-test-sso': 'alice;admins' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error?.code, 'AUTH_REQUIRED');
    assert.equal(await srv.app().auth.users.count(), 0);
  }));

test('groups map to read-only; a user seen first without groups gets auth.forward_default_role', () =>
  withProxy(
    ['127.0.0.2'],
    async (_srv, proxy) => {
      const carol = await get(`${proxy}/api/user`, { 'x-test-sso': 'carol' });
      assert.equal(carol.status, 200, JSON.stringify(carol.body));
      assert.deepEqual([carol.body.data?.role, carol.body.data?.is_admin], ['read-only', false]);
      assert.equal((await get(`${proxy}/api/queue`, { 'x-test-sso': 'carol' })).status, 200);
      const write = await fetch(`${proxy}/api/queue/completed`, {
        method: 'DELETE',
        headers: { 'x-test-sso': 'carol', origin: proxy },
      });
      assert.equal(write.status, 403);
      assert.equal(((await write.json()) as { error: { code: string } }).error.code, 'READ_ONLY_USER');

      const roleOf = async (who: string) => (await get(`${proxy}/api/user`, { 'x-test-sso': who })).body.data?.role;
      assert.equal(await roleOf('dave;family,viewers'), 'read-only');
      assert.equal(await roleOf('dave;family'), 'user');
      assert.equal(await roleOf('dave;viewers,admins'), 'admin', 'an administrator group wins');
      assert.equal(await roleOf('dave'), 'admin', 'without groups a known user keeps its role');
      assert.equal(await roleOf('erin;family'), 'user', 'groups decide even on first sight');
    },
    { forward_readonly_groups: ['viewers'], forward_default_role: 'read-only' },
  ));

test('auth.forward_default_role and forward_readonly_groups are validated with a field message', async () => {
  const srv = await startServer({ config: { auth: { login_required: false } } });
  try {
    const key = (await srv.app().auth.users.firstAdmin())?.api_key;
    const res = await fetch(`${srv.baseUrl}/api/config/auth`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
      body: JSON.stringify({
        section: 'auth',
        config: { forward_default_role: 'root', forward_readonly_groups: 'viewers' },
      }),
    });
    const body = (await res.json()) as { error: { code: string; details: { field: string; message: string }[] } };
    assert.equal(res.status, 400);
    assert.equal(body.error.code, 'VALIDATION_FAILED');
    const fields = Object.fromEntries(body.error.details.map((d) => [d.field, d.message]));
    assert.equal(fields['auth.forward_default_role'], 'Must be one of admin, user, read-only');
    assert.ok(fields['auth.forward_readonly_groups'], JSON.stringify(body.error.details));
  } finally {
    await srv.stop();
  }
});
