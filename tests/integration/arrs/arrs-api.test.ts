/**
 * POST /api/arrs/instances/test and the arrs config section on the real server, against fake Radarr and Sonarr
 * servers (tests/support/fake-arr): the status call with X-Api-Key, the type check, each failure in words, the
 * stored key used for a saved instance, write-only keys, and the section's validation messages.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, startServer, type TestServer } from '../../support/server.js';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';

let srv: TestServer;
let radarr: FakeArr;
let sonarr: FakeArr;

type Json = Record<string, unknown>;
const call = (method: string, path: string, json?: unknown) => api<Json>(srv.baseUrl, path, { method, json });
const arrTest = async (body: Json) => {
  const res = await call('POST', '/api/arrs/instances/test', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as { success: boolean; message: string; error?: string };
};

before(async () => {
  radarr = await startFakeArr({ type: 'radarr', apiKey: 'radarr-key' });
  sonarr = await startFakeArr({ type: 'sonarr', apiKey: 'sonarr-key' });
  srv = await startServer({ config: { auth: { login_required: false } } });
});
after(async () => {
  await srv?.stop();
  await radarr?.close();
  await sonarr?.close();
});

test('a right URL and key of the right type is "Connection successful", through system/status with X-Api-Key', async () => {
  assert.deepEqual(await arrTest({ type: 'radarr', url: radarr.url, api_key: 'radarr-key' }), {
    success: true,
    message: 'Connection successful',
  });
  const last = radarr.calls.at(-1)!;
  assert.equal(last.path, '/api/v3/system/status');
  assert.equal(last.apiKey, 'radarr-key');
  assert.equal((await arrTest({ type: 'sonarr', url: `${sonarr.url}/`, api_key: 'sonarr-key' })).success, true);
});

test('each failure says what is wrong', async () => {
  const wrongKey = await arrTest({ type: 'radarr', url: radarr.url, api_key: 'nope' });
  assert.deepEqual(wrongKey, {
    success: false,
    message: 'The API key was refused (HTTP 401)',
    error: 'The API key was refused (HTTP 401)',
  });
  const wrongType = await arrTest({ type: 'radarr', url: sonarr.url, api_key: 'sonarr-key' });
  assert.equal(wrongType.error, 'This is Sonarr, not Radarr');

  const gone = await startFakeArr({ type: 'radarr' });
  const url = gone.url;
  await gone.close();
  const down = await arrTest({ type: 'radarr', url, api_key: 'k' });
  assert.equal(down.success, false);
  assert.match(down.error!, /^Could not connect: ECONNREFUSED/);

  radarr.fail({ path: 'system/status', status: 500, times: 1 });
  assert.match((await arrTest({ type: 'radarr', url: radarr.url, api_key: 'radarr-key' })).error!, /HTTP 500/);

  assert.equal((await arrTest({ type: 'radarr', url: '', api_key: 'k' })).error, 'URL and API key are required');
  assert.equal((await arrTest({ type: 'radarr', url: 'ftp://x', api_key: 'k' })).error, 'Invalid URL format');

  const badType = await call('POST', '/api/arrs/instances/test', { type: 'lidarr', url: radarr.url, api_key: 'k' });
  assert.equal(badType.status, 400);
  assert.equal(badType.body.error?.code, 'VALIDATION_FAILED');
});

test('saved instances: keys are write-only, a test by name uses the stored key, validation names every problem', async () => {
  const instance = { name: 'Movies', type: 'radarr', url: radarr.url, api_key: 'radarr-key', enabled: true };
  const saved = await call('PATCH', '/api/config/arrs', {
    section: 'arrs',
    config: { enabled: true, radarr_instances: [instance], sonarr_instances: [] },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const got = await call('GET', '/api/config');
  const arrs = (got.body.data as { arrs: { radarr_instances: Json[] } }).arrs;
  assert.deepEqual(arrs.radarr_instances, [
    { name: 'Movies', type: 'radarr', url: radarr.url, enabled: true, root_folder: '', api_key_set: true },
  ]);
  assert.equal(JSON.stringify(got.body).includes('radarr-key'), false);

  const byName = await arrTest({ type: 'radarr', url: radarr.url, api_key: '', name: 'Movies' });
  assert.equal(byName.success, true);
  assert.equal(radarr.calls.at(-1)!.apiKey, 'radarr-key');

  const bad = await call('PATCH', '/api/config/arrs', {
    section: 'arrs',
    config: {
      enabled: true,
      radarr_instances: [
        { ...instance, api_key: '' },
        { name: 'Movies', type: 'radarr', url: 'not a url', api_key: 'x' },
      ],
      sonarr_instances: [{ name: '', type: 'sonarr', url: '', api_key: '' }],
    },
  });
  assert.equal(bad.status, 400);
  const messages = (bad.body.error?.details as { message: string }[]).map((d) => d.message).sort();
  assert.deepEqual(messages, [
    'Instance name "Movies" is used multiple times',
    'Radarr instance #2: Invalid URL format',
    'Sonarr instance #1: API key is required',
    'Sonarr instance #1: Name is required',
    'Sonarr instance #1: URL is required',
  ]);
  // The first instance's empty key kept the stored one; nothing was written.
  assert.equal((await arrTest({ type: 'radarr', url: radarr.url, api_key: '', name: 'Movies' })).success, true);
  assert.deepEqual(radarr.unexpected, []);
  assert.deepEqual(sonarr.unexpected, []);
});
