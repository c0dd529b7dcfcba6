/**
 * /api/providers and /api/system/pool/metrics on the real server, against a real INN (AUTHINFO required):
 * the connection test, create/update/delete/reorder with write-only passwords, live pool updates, roles.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';

let srv: TestServer;
let inn: InnServer;
let adminKey = '';
let userKey = '';

type Json = Record<string, unknown>;
const call = (method: string, path: string, json?: unknown, key = adminKey) =>
  api<Json & Json[]>(srv.baseUrl, path, { method, json, headers: key ? { 'x-api-key': key } : {} });

async function register(username: string): Promise<string> {
  const res = await call('POST', '/api/auth/register', { username, password: 'correct horse' }, '');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body.data as unknown as { user: { api_key: string } }).user.api_key;
}

const innProvider = () => ({
  host: inn.host,
  port: inn.port,
  username: inn.username,
  password: inn.password,
  max_connections: 4,
});

before(async () => {
  inn = await ensureInn();
  srv = await startServer();
  adminKey = await register('admin');
  await call('PATCH', '/api/config/auth', { section: 'auth', config: { registration_enabled: true } });
  userKey = await register('viewer');
});
after(async () => srv?.stop());

test('the connection test authenticates against INN and names what went wrong', async () => {
  const ok = await call('POST', '/api/providers/test', { ...innProvider(), tls: false, insecure_tls: false });
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body.data, { success: true });

  const wrong = await call('POST', '/api/providers/test', { ...innProvider(), password: 'not-the-password' });
  assert.equal(wrong.status, 200);
  assert.equal(wrong.body.data?.success, false);
  assert.match(String(wrong.body.data?.error_message), /Authentication failed/);

  const closed = await call('POST', '/api/providers/test', { ...innProvider(), port: 1 });
  assert.equal(closed.body.data?.success, false);
  assert.ok(String(closed.body.data?.error_message).length > 0);

  const bad = await call('POST', '/api/providers/test', { host: '', port: 70000 });
  assert.equal(bad.status, 400);
  const fields = (bad.body.error?.details as { field: string }[]).map((e) => e.field).sort();
  assert.deepEqual(fields, ['host', 'port']);
});

test('host, username and password with CR, LF or NUL are refused by the test and by saving (NNTP injection)', async () => {
  const evil = [
    { host: `${inn.host}\r\nQUIT` },
    { username: `${inn.username}\r\nAUTHINFO USER other` },
    { password: 'x\u0000y' },
  ];
  for (const change of evil) {
    const field = Object.keys(change)[0] as string;
    const tested = await call('POST', '/api/providers/test', { ...innProvider(), ...change });
    assert.equal(tested.status, 400, field);
    assert.deepEqual(tested.body.error?.details, [
      { field, message: 'Must not contain line breaks or NUL characters' },
    ]);
    const saved = await call('POST', '/api/providers', { ...innProvider(), ...change });
    assert.equal(saved.status, 400, field);
    assert.match(JSON.stringify(saved.body.error?.details), /Must not contain line breaks or NUL characters/);
  }
  assert.equal(
    ((await call('GET', '/api/config')).body.data as unknown as { providers: unknown[] }).providers.length,
    0,
  );
});

test('providers are created, edited, reordered and deleted; passwords never come back; the pool follows live', async () => {
  const created = await call('POST', '/api/providers', innProvider());
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const first = created.body.data as Json;
  assert.equal(first.password_set, true);
  assert.equal('password' in first, false);
  assert.equal(first.port, inn.port);
  assert.equal(first.enabled, true);
  assert.equal(first.is_backup_provider, false);
  const id = String(first.id);

  const backup = await call('POST', '/api/providers', { ...innProvider(), is_backup_provider: true });
  const backupId = String((backup.body.data as Json).id);

  // The running pool sees both providers without a restart.
  const metrics = await call('GET', '/api/system/pool/metrics', undefined, userKey);
  assert.equal(metrics.status, 200);
  const m = metrics.body.data as unknown as { providers: { id: string }[]; active_connections: number };
  assert.deepEqual(
    m.providers.map((p) => p.id),
    [id, backupId],
  );
  for (const key of [
    'active_connections',
    'total_bytes_downloaded',
    'command_success_rate_percent',
    'error_rate_percent',
    'acquire_wait_time_ms',
  ]) {
    assert.equal(typeof (m as unknown as Json)[key], 'number', key);
  }

  // Edit only one field: the saved password is kept, so a test by id with an empty password still authenticates.
  const edited = await call('PUT', `/api/providers/${id}`, { max_connections: 2, password: '' });
  assert.equal(edited.status, 200, JSON.stringify(edited.body));
  assert.equal((edited.body.data as Json).max_connections, 2);
  assert.equal((edited.body.data as Json).password_set, true);
  const byId = await call('POST', '/api/providers/test', { ...innProvider(), password: '', id });
  assert.deepEqual(byId.body.data, { success: true });

  const reordered = await call('PUT', '/api/providers/reorder', { provider_ids: [backupId, id] });
  assert.equal(reordered.status, 200, JSON.stringify(reordered.body));
  const cfg = await call('GET', '/api/config');
  const providers = (cfg.body.data as unknown as { providers: Json[] }).providers;
  assert.deepEqual(
    providers.map((p) => p.id),
    [backupId, id],
  );
  assert.ok(providers.every((p) => !('password' in p) && p.password_set === true));

  const badReorder = await call('PUT', '/api/providers/reorder', { provider_ids: [id] });
  assert.equal(badReorder.status, 400);

  const invalid = await call('PUT', `/api/providers/${id}`, { max_connections: 0, port: 'x' });
  assert.equal(invalid.status, 400);

  const missing = await call('PUT', '/api/providers/nope', { max_connections: 3 });
  assert.equal(missing.status, 404);

  const deleted = await call('DELETE', `/api/providers/${backupId}`);
  assert.equal(deleted.status, 200);
  const after = await call('GET', '/api/system/pool/metrics');
  assert.deepEqual(
    (after.body.data as unknown as { providers: { id: string }[] }).providers.map((p) => p.id),
    [id],
  );
});

test('provider management is for administrators only', async () => {
  for (const [method, path] of [
    ['POST', '/api/providers/test'],
    ['POST', '/api/providers'],
    ['PUT', '/api/providers/reorder'],
    ['PUT', '/api/providers/x'],
    ['DELETE', '/api/providers/x'],
  ] as const) {
    const asUser = await call(method, path, {}, userKey);
    assert.equal(asUser.status, 403, `${method} ${path} as user`);
    const anonymous = await call(method, path, {}, '');
    assert.equal(anonymous.status, 401, `${method} ${path} anonymous`);
  }
  assert.equal((await call('GET', '/api/system/pool/metrics', undefined, '')).status, 401);
});
