import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { api, ApiError, describeError } from './client';
import { shouldRetryQuery } from '../lib/queryClient';

// Unit tests of the error rules of docs/console-contract.md §8: fetch is replaced per test with a scripted answer.
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

function answer(status: number, body: unknown, statusText = '') {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  globalThis.fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(text, { status, statusText });
  }) as typeof fetch;
  return calls;
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a failure');
}

test('success unwraps data, sends cookies and JSON under /api', async () => {
  const calls = answer(200, { success: true, data: { login_required: true } });
  assert.deepEqual(await api.post('/auth/login', { username: 'a' }), { login_required: true });
  assert.equal(calls[0]?.url, '/api/auth/login');
  assert.equal(calls[0]?.init?.credentials, 'same-origin');
  assert.equal(calls[0]?.init?.body, '{"username":"a"}');
  assert.equal((calls[0]?.init?.headers as Record<string, string>)['Content-Type'], 'application/json');
});

test('lists keep meta and query parameters skip empty values', async () => {
  const calls = answer(200, { success: true, data: [{ id: 1 }], meta: { total: 9, limit: 1, offset: 0 } });
  const page = await api.list('/users', { query: { limit: 1, offset: 0, search: '' } });
  assert.deepEqual(page, { data: [{ id: 1 }], meta: { total: 9, limit: 1, offset: 0 } });
  assert.equal(calls[0]?.url, '/api/users?limit=1&offset=0');
});

test("a non-OK answer carries the body's message, status and details", async () => {
  answer(400, { success: false, error: { message: 'Validation failed', details: [{ field: 'x', message: 'bad' }] } });
  const err = await failure(api.get('/config'));
  assert.equal(err.status, 400);
  assert.equal(err.message, 'Validation failed');
  assert.equal(describeError(err, 'fallback'), 'x: bad');
});

test("a non-OK answer without a body reads 'HTTP {status}: {text}'", async () => {
  answer(502, '', 'Bad Gateway');
  const err = await failure(api.get('/config'));
  assert.equal(err.message, 'HTTP 502: Bad Gateway');
});

test("success false on a 200 reads its error or 'API request failed'", async () => {
  answer(200, { success: false, error: { message: 'Nope' } });
  assert.equal((await failure(api.get('/x'))).message, 'Nope');
  answer(200, { success: false });
  assert.equal((await failure(api.get('/x'))).message, 'API request failed');
});

test('a network failure is status 0', async () => {
  globalThis.fetch = (async () => {
    throw new TypeError('Failed to fetch');
  }) as typeof fetch;
  const err = await failure(api.get('/auth/config'));
  assert.equal(err.status, 0);
  assert.equal(err.isNetworkError, true);
});

test('queries are not retried on 4xx, and up to 3 times otherwise', () => {
  assert.equal(shouldRetryQuery(0, new ApiError(404, 'x')), false);
  assert.equal(shouldRetryQuery(0, new ApiError(401, 'x')), false);
  assert.equal(shouldRetryQuery(0, new ApiError(500, 'x')), true);
  assert.equal(shouldRetryQuery(2, new ApiError(0, 'x')), true);
  assert.equal(shouldRetryQuery(3, new ApiError(503, 'x')), false);
});
