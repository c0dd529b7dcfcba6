import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ConfigService } from '../../../appliance/config/index.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * /api/config through the whole real Spool: createApp on port 0 with a temp data dir, the real config file, LMDB
 * store and auth. Callers authenticate with the API keys of two registered users: the first (admin) and a second
 * (ordinary) one, registered after the admin opened registration through this very API.
 */
let srv: TestServer;
let adminKey = '';
let userKey = '';
const config = (): ConfigService => srv.app().config;

interface Answer {
  status: number;
  body: { success: boolean; data?: any; error?: { message: string; details: any; code: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(method: string, path: string, body?: unknown, role = 'admin', raw?: string): Promise<Answer> {
  const key = role === 'admin' ? adminKey : role === 'user' ? userKey : '';
  const res = await fetch(srv.baseUrl + path, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function register(username: string): Promise<string> {
  const res = await call('POST', '/api/auth/register', { username, password: 'correct horse' }, '');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.user.api_key as string;
}

before(async () => {
  srv = await startServer();
  adminKey = await register('admin');
  const open = await call('PATCH', '/api/config/auth', { section: 'auth', config: { registration_enabled: true } });
  assert.equal(open.status, 200);
  userKey = await register('ordinary');
});

after(async () => {
  await srv?.stop();
});

const fieldsOf = (a: Answer) => (a.body.error?.details as { field: string }[]).map((e) => e.field).sort();

test('GET /api/config answers the redacted config, to admins only', async () => {
  await config().patchSection('webdav', { password: 'dav-secret' });
  await config().addProvider({ host: 'news.example.com', username: 'u', password: 'nntp-secret' });
  const ok = await call('GET', '/api/config');
  assert.equal(ok.status, 200);
  assert.equal(ok.body.success, true);
  assert.equal(ok.body.data.webdav.port, 8080);
  assert.equal(ok.body.data.webdav.password_set, true);
  assert.equal(ok.body.data.providers[0].password_set, true);
  const text = JSON.stringify(ok.body);
  assert.ok(!text.includes('dav-secret') && !text.includes('nntp-secret'));
  assert.equal((await call('GET', '/api/config', undefined, 'user')).status, 403);
  assert.equal((await call('GET', '/api/config', undefined, '')).status, 401);
  assert.equal(
    (await call('PATCH', '/api/config/webdav', { section: 'webdav', config: { port: 1 } }, 'user')).status,
    403,
  );
});

test('PATCH /api/config/{section} saves, persists and reports restart-required fields', async () => {
  const res = await call('PATCH', '/api/config/webdav', {
    section: 'webdav',
    config: { port: 9191, password: '********' },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data.restart_required, ['webdav.port']);
  assert.equal(res.body.data.config.webdav.port, 9191);
  assert.equal(res.body.data.config.webdav.password_set, true);
  const onDisk = parse(readFileSync(config().path, 'utf8'));
  assert.equal(onDisk.webdav.port, 9191);
  assert.equal(onDisk.webdav.password, 'dav-secret', 'the masked placeholder kept the secret');

  const system = await call('PATCH', '/api/config/system', { section: 'system', config: { mount_path: '/mnt/x' } });
  assert.equal(system.status, 200);
  assert.equal(system.body.data.config.mount_path, '/mnt/x');
});

test('bad input: each is a 400 naming every bad field, and nothing is saved', async () => {
  const before = readFileSync(config().path, 'utf8');
  const malformed = await call('PATCH', '/api/config/health', undefined, 'admin', '{"section": "health", "config": {');
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.error?.code, 'INVALID_JSON');

  const bad = await call('PATCH', '/api/config/health', {
    section: 'health',
    config: { max_retries: 'three', check_interval_seconds: 4, max_concurrent_jobs: 11, colour: 'red' },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error?.code, 'VALIDATION_FAILED');
  assert.deepEqual(fieldsOf(bad), [
    'health.check_interval_seconds',
    'health.colour',
    'health.max_concurrent_jobs',
    'health.max_retries',
  ]);
  assert.match(bad.body.error!.message, /health\.check_interval_seconds: Must be between 5 and 86400/);

  const mismatch = await call('PATCH', '/api/config/health', { section: 'webdav', config: {} });
  assert.equal(mismatch.status, 400);
  assert.deepEqual(fieldsOf(mismatch), ['section']);

  const providers = await call('PATCH', '/api/config/providers', { section: 'providers', config: {} });
  assert.equal(providers.status, 400);

  const notObject = await call('PUT', '/api/config', [1, 2, 3]);
  assert.equal(notObject.status, 400);

  const sab = await call('PATCH', '/api/config/sabnzbd', {
    section: 'sabnzbd',
    config: { enabled: true, complete_dir: 'relative', categories: [{ name: 'tv' }, { name: 'tv' }] },
  });
  assert.equal(sab.status, 400);
  assert.deepEqual(
    (sab.body.error?.details as { message: string }[]).map((e) => e.message),
    ['Complete directory must be an absolute path (starting with /)', 'Duplicate category names found: tv'],
  );

  const huge = await call(
    'PUT',
    '/api/config',
    undefined,
    'admin',
    JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
  );
  assert.equal(huge.status, 413);

  assert.equal(readFileSync(config().path, 'utf8'), before);
});

test('PUT /api/config takes back what GET gave, secrets included', async () => {
  const got = (await call('GET', '/api/config')).body.data;
  got.streaming.max_download_workers = 20;
  const put = await call('PUT', '/api/config', got);
  assert.equal(put.status, 200);
  assert.equal(put.body.data.config.streaming.max_download_workers, 20);
  assert.equal(config().get().webdav.password, 'dav-secret');
  assert.equal(config().get().providers[0]?.password, 'nntp-secret');
});

test('POST /api/config/validate answers {valid, errors} and writes nothing', async () => {
  const before = readFileSync(config().path, 'utf8');
  const good = await call('POST', '/api/config/validate', { section: 'import', config: { max_processor_workers: 20 } });
  assert.deepEqual(good.body.data, { valid: true, errors: [] });
  const bad = await call('POST', '/api/config/validate', { section: 'import', config: { max_processor_workers: 21 } });
  assert.equal(bad.status, 200);
  assert.deepEqual(bad.body.data, {
    valid: false,
    errors: [{ field: 'import.max_processor_workers', message: 'Must be between 1 and 20' }],
  });
  assert.equal(readFileSync(config().path, 'utf8'), before);
});

test('POST /api/config/reload applies a hand edit, and refuses a broken one keeping the running config', async () => {
  const text = readFileSync(config().path, 'utf8');
  writeFileSync(config().path, text.replace('max_concurrent_jobs: 1', 'max_concurrent_jobs: 4'));
  const ok = await call('POST', '/api/config/reload');
  assert.equal(ok.status, 200);
  assert.equal(ok.body.data.config.health.max_concurrent_jobs, 4);

  writeFileSync(
    config().path,
    text
      .replace('max_concurrent_jobs: 1', 'max_concurrent_jobs: 40')
      .replace('streaming:', 'streaming:\n  turbo: true'),
  );
  const bad = await call('POST', '/api/config/reload');
  assert.equal(bad.status, 400);
  assert.deepEqual(fieldsOf(bad), ['health.max_concurrent_jobs', 'streaming.turbo']);
  assert.equal((await call('GET', '/api/config')).body.data.health.max_concurrent_jobs, 4);

  writeFileSync(config().path, 'webdav: [unclosed\n');
  const syntax = await call('POST', '/api/config/reload');
  assert.equal(syntax.status, 400);
  assert.match(syntax.body.error!.details[0].message, /YAML syntax error/);
});

test('Spool refuses to start on a config file with errors, naming each one', async () => {
  await assert.rejects(
    startServer({ config: { webdav: { port: 0 }, health: { max_retries: 9 }, extra: 1 } }),
    (err: Error) => {
      assert.match(err.message, /webdav\.port: Must be between 1 and 65535/);
      assert.match(err.message, /health\.max_retries: Must be between 0 and 5/);
      assert.match(err.message, /extra: Unknown field/);
      return true;
    },
  );
});
