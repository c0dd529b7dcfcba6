/**
 * Behind Docker's userland proxy, NAT or an unlisted reverse proxy every client of the house arrives from one
 * address (here 127.0.0.1). One player with a stale WebDAV password must not lock out rclone, the other players
 * and the console; real guessing still ends in 429 (docs/errors.md RATE_LIMITED). Over real HTTP: Basic on
 * /webdav and the console's login form.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';

let srv: TestServer;

before(async () => {
  srv = await startServer({
    config: { auth: { login_required: true }, webdav: { user: 'player', password: 'player-password' } },
  });
  await api(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'alice', password: 'alice-password' },
  });
});
after(() => srv?.stop());

const basic = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;

async function propfind(authorization: string): Promise<number> {
  const res = await fetch(`${srv.baseUrl}/webdav/`, { method: 'PROPFIND', headers: { depth: '0', authorization } });
  await res.arrayBuffer();
  return res.status;
}

const login = (username: string, password: string) =>
  api(srv.baseUrl, '/api/auth/login', { method: 'POST', json: { username, password } });

test('a player repeating a stale password locks out nobody: rclone, the player itself and the console get in', async () => {
  for (let i = 0; i < 40; i++) assert.equal(await propfind(basic('player', 'old-player-password')), 401);
  assert.equal(await propfind(basic('player', 'player-password')), 207, 'rclone with the right pair');
  assert.equal(await propfind(basic('alice', 'alice-password')), 207, 'a user over WebDAV');
  assert.equal((await login('alice', 'alice-password')).status, 200, 'the console');
  // A console user who mistypes the same password again and again is not guessing either.
  for (let i = 0; i < 15; i++) assert.equal((await login('alice', 'alice-pasword')).status, 401);
  assert.equal((await login('alice', 'alice-password')).status, 200);
});

test('guessing is still throttled: 11 distinct wrong passwords for a name, then even the right one is 429', async () => {
  for (let i = 0; i < 10; i++) assert.equal((await login('alice', `guess-${i}`)).status, 401);
  const limited = await login('alice', 'guess-10');
  assert.equal(limited.status, 429);
  const right = await login('alice', 'alice-password');
  assert.equal(right.status, 429);
  assert.equal(right.body.error?.code, 'RATE_LIMITED');
  assert.match(right.body.error!.message, /^Too many failed login attempts\. Try again in \d+ seconds\.$/);
  assert.ok(Number(right.res.headers.get('retry-after')) > 0);
  // Basic for the same name shares the count; the house's other names keep working.
  assert.equal(await propfind(basic('alice', 'alice-password')), 429);
  assert.equal(await propfind(basic('player', 'player-password')), 207);
  // WebDAV guesses at the player pair are throttled the same way.
  for (let i = 0; i < 10; i++) assert.equal(await propfind(basic('player', `pair-guess-${i}`)), 401);
  assert.equal(await propfind(basic('player', 'player-password')), 429);
});
