/**
 * Behind a reverse proxy every request comes from the proxy's address. `auth.trusted_proxies` names the proxies
 * whose X-Forwarded-For (and -Proto, -Host) count; from anyone else those headers are ignored, so a client cannot
 * forge its way around the login limit. The client is the rightmost address in X-Forwarded-For that is not a
 * trusted proxy (what the last trusted hop saw), never the leftmost one the client wrote itself.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';

const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.stop())));

async function server(trusted_proxies?: string[]): Promise<TestServer> {
  const srv = await startServer({
    config: { auth: { login_required: true, ...(trusted_proxies ? { trusted_proxies } : {}) } },
  });
  servers.push(srv);
  await api(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'alice', password: 'alice-password' },
  });
  return srv;
}

const login = (srv: TestServer, password: string, headers: Record<string, string> = {}) =>
  api(srv.baseUrl, '/api/auth/login', { method: 'POST', json: { username: 'alice', password }, headers });

test('from a trusted proxy, the limit applies per forwarded client: one client locked out, another signs in', async () => {
  const srv = await server(['127.0.0.1']);
  for (let i = 0; i < 10; i++)
    assert.equal((await login(srv, `wrong-${i}`, { 'x-forwarded-for': '203.0.113.5' })).status, 401);
  assert.equal((await login(srv, 'alice-password', { 'x-forwarded-for': '203.0.113.5' })).status, 429);
  // The client cannot escape by writing its own addresses to the left: the proxy appended the real one.
  const spoofed = await login(srv, 'alice-password', { 'x-forwarded-for': '198.51.100.7, 203.0.113.5' });
  assert.equal(spoofed.status, 429);
  assert.equal((await login(srv, 'alice-password', { 'x-forwarded-for': '203.0.113.6' })).status, 200);
});

test('a trusted range (CIDR) chains through several proxies', async () => {
  const srv = await server(['127.0.0.0/8', '10.0.0.0/8']);
  for (let i = 0; i < 10; i++) await login(srv, `wrong-${i}`, { 'x-forwarded-for': '203.0.113.9, 10.1.2.3' });
  assert.equal((await login(srv, 'alice-password', { 'x-forwarded-for': '203.0.113.9' })).status, 429);
  assert.equal((await login(srv, 'alice-password', { 'x-forwarded-for': '203.0.113.10, 10.1.2.3' })).status, 200);
});

test('X-Forwarded-For from an untrusted peer is ignored: forging addresses does not reset the limit', async () => {
  const srv = await server();
  for (let i = 0; i < 10; i++) await login(srv, `wrong-${i}`, { 'x-forwarded-for': `203.0.113.${i}` });
  assert.equal((await login(srv, 'alice-password', { 'x-forwarded-for': '198.51.100.1' })).status, 429);
});

test('X-Forwarded-Proto and -Host count only from a trusted proxy', async () => {
  const open = await server();
  const trusting = await server(['127.0.0.1']);
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'spool.example.test' };
  const plain = await login(open, 'alice-password', forwarded);
  assert.doesNotMatch(plain.res.headers.get('set-cookie') ?? '', /Secure/);
  const viaProxy = await login(trusting, 'alice-password', forwarded);
  assert.match(viaProxy.res.headers.get('set-cookie') ?? '', /; Secure/);
  // The proxy's public host is the console's own origin for the cross-origin check.
  const cookie = (viaProxy.res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const change = (srv: TestServer, c: string) =>
    api(srv.baseUrl, '/api/user/api-key/regenerate', {
      method: 'POST',
      headers: { cookie: c, origin: 'https://spool.example.test', ...forwarded },
    });
  assert.equal((await change(trusting, cookie)).status, 200);
  const openCookie = (plain.res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  assert.equal((await change(open, openCookie)).status, 403);
});
