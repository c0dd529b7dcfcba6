/**
 * The live channel (`/api/live`, a WebSocket on the real server, appliance/http/live.ts) is authenticated like the
 * `/api` routes: the session cookie (from the console's own origin only), the API key (header or `apikey` query),
 * or nobody when login is not required; anyone else is refused before the upgrade.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import type { LiveMessage } from '../../../appliance/events/live.wire.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';

let locked: TestServer;
let open: TestServer;
let cookie = '';
let apiKey = '';

const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
const liveUrl = (srv: TestServer, query = '') => `${srv.baseUrl.replace(/^http/, 'ws')}/api/live${query}`;

type Outcome = { opened: true; hello: LiveMessage; ws: WebSocket } | { opened: false; status: number; code?: string };

/** Opens the channel; resolves with its first message, or with the HTTP status and error code that refused it. */
function connect(url: string, headers: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const timer = setTimeout(() => reject(new Error(`no answer from ${url}`)), 10_000);
    ws.once('message', (data) => {
      clearTimeout(timer);
      resolve({ opened: true, hello: JSON.parse(String(data)) as LiveMessage, ws });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => {
        clearTimeout(timer);
        const code = (JSON.parse(body || '{}') as { error?: { code: string } }).error?.code;
        resolve({ opened: false, status: res.statusCode ?? 0, code });
      });
    });
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

async function opened(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  const outcome = await connect(url, headers);
  assert.equal(outcome.opened, true, JSON.stringify(outcome));
  if (!outcome.opened) throw new Error('refused');
  assert.equal(outcome.hello.type, 'hello');
  return outcome.ws;
}

async function refused(url: string, headers: Record<string, string> = {}) {
  const outcome = await connect(url, headers);
  if (outcome.opened) outcome.ws.close();
  assert.equal(outcome.opened, false, 'the upgrade was accepted');
  return outcome.opened ? { status: 101 } : { status: outcome.status, code: outcome.code };
}

before(async () => {
  locked = await startServer({ config: { auth: { login_required: true } } });
  const r = await api<{ user: { api_key: string } }>(locked.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'admin', password: 'admin-password' },
  });
  cookie = cookieOf(r.res);
  apiKey = r.body.data!.user.api_key;
  open = await startServer({ config: { auth: { login_required: false } } });
});
after(async () => {
  await locked?.stop();
  await open?.stop();
});

test('the session cookie from the console’s own origin opens the channel; from another origin it is refused', async () => {
  assert.match(cookie, /^spool_session=/);
  const ws = await opened(liveUrl(locked), { cookie, origin: locked.baseUrl });
  ws.close();
  assert.deepEqual(await refused(liveUrl(locked), { cookie, origin: 'http://evil.example' }), {
    status: 403,
    code: 'CROSS_ORIGIN_REFUSED',
  });
  assert.deepEqual(await refused(liveUrl(locked), { cookie: 'spool_session=forged', origin: locked.baseUrl }), {
    status: 401,
    code: 'AUTH_REQUIRED',
  });
});

test('the API key opens the channel (header or apikey query, any origin); a wrong key is refused', async () => {
  (await opened(liveUrl(locked), { 'x-api-key': apiKey, origin: 'http://evil.example' })).close();
  (await opened(liveUrl(locked, `?apikey=${encodeURIComponent(apiKey)}`))).close();
  assert.deepEqual(await refused(liveUrl(locked), { 'x-api-key': 'wrong' }), { status: 401, code: 'AUTH_REQUIRED' });
});

test('anonymous callers are refused when login is required', async () => {
  assert.deepEqual(await refused(liveUrl(locked)), { status: 401, code: 'AUTH_REQUIRED' });
  assert.deepEqual(await refused(liveUrl(locked), { origin: locked.baseUrl }), { status: 401, code: 'AUTH_REQUIRED' });
});

test('with login not required anyone may listen (but not from a foreign page), and events arrive in the wire shape', async () => {
  assert.deepEqual(await refused(liveUrl(open), { origin: 'http://evil.example' }), {
    status: 403,
    code: 'CROSS_ORIGIN_REFUSED',
  });
  const ws = await opened(liveUrl(open), { origin: open.baseUrl });
  try {
    const next = new Promise<LiveMessage>((resolve) =>
      ws.once('message', (data) => resolve(JSON.parse(String(data)) as LiveMessage)),
    );
    const item = { id: 7, name: 'Some.Show', category: 'tv', status: 'pending' as const, paused: false };
    open.app().events.emit('queue.item.added', item);
    assert.deepEqual(await next, { type: 'event', topic: 'queue.item.added', data: item });
  } finally {
    ws.close();
  }
});

test('a client chooses its topics: after subscribe it receives those only; a bad message gets an error', async () => {
  const ws = await opened(liveUrl(open), { origin: open.baseUrl });
  try {
    const messages: LiveMessage[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveMessage));
    ws.send(JSON.stringify({ type: 'subscribe', topics: ['nope'] }));
    ws.send(JSON.stringify({ type: 'subscribe', topics: ['health.record.changed'] }));
    await until(() => messages.length >= 1);
    assert.deepEqual(messages.shift(), { type: 'error', message: 'unknown topics: nope' });
    await until(() => open.app().live.wants('health.record.changed'));
    open.app().events.emit('queue.item.added', { id: 8, name: 'x', category: null, status: 'pending', paused: false });
    const record = { id: 3, path: '/complete/tv/a.mkv', change: 'updated' as const, status: 'healthy' as const };
    open.app().events.emit('health.record.changed', record);
    await until(() => messages.length >= 1);
    assert.deepEqual(messages, [{ type: 'event', topic: 'health.record.changed', data: record }]);
  } finally {
    ws.close();
  }
});

async function until(check: () => boolean): Promise<void> {
  await waitUntil('the live channel condition', check, { everyMs: 10 });
}

test('a restart ends the open channels (1001) and the next app takes new ones', async () => {
  const ws = await opened(liveUrl(open));
  const closed = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the channel stayed open across the restart')), 10_000);
    ws.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  const before = open.restarts();
  const r = await api(open.baseUrl, '/api/system/restart', { method: 'POST', json: { force: false } });
  assert.equal(r.status, 200);
  assert.equal(await closed, 1001);
  await waitUntil('the in-process restart', () => open.restarts() !== before, { everyMs: 25 });
  assert.equal(open.restarts(), before + 1);
  (await opened(liveUrl(open))).close();
});
