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

async function withProxy(trusted: string[], fn: (srv: TestServer, proxy: string) => Promise<void>): Promise<void> {
  const srv = await startServer({ config: { auth: { login_required: true, trusted_proxies: trusted, ...FORWARD } } });
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
      data?: { name: string; is_admin: boolean };
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
