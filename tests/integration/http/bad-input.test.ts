import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { api, startServer, type TestServer } from '../../support/server.js';

/** A raw request (fetch refuses some of what we want to send, and aborts uploads the server refused early). */
function raw(
  srv: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
  chunked = false,
) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: srv.port, method, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), headers: res.headers }),
      );
    });
    req.on('error', reject);
    if (body && chunked) {
      for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
      req.end();
    } else req.end(body);
  });
}

describe('bad input gets its status and a clear message; the server keeps serving', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.stop());

  test('malformed JSON is 400 INVALID_JSON', async () => {
    const r = await api(srv.baseUrl, '/api/auth/login', {
      method: 'POST',
      body: '{"username": "a",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error!.code, 'INVALID_JSON');
    assert.equal(r.body.error!.message, 'Request body is not valid JSON');
  });

  test('wrong types, missing and unknown fields are all reported at once', async () => {
    const r = await api(srv.baseUrl, '/api/auth/login', {
      method: 'POST',
      json: { username: 42, extra: true, more: 1 },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error!.code, 'VALIDATION_FAILED');
    const details = r.body.error!.details as { field: string; message: string }[];
    assert.ok(
      details.some((d) => d.field === 'username'),
      'wrong type',
    );
    assert.ok(
      details.some((d) => d.field === 'password' && d.message === 'Password is required'),
      'missing',
    );
    assert.ok(
      details.some((d) => d.message === 'Unknown fields: extra, more'),
      'unknown',
    );
    const arr = await api(srv.baseUrl, '/api/auth/login', { method: 'POST', json: [1, 2] });
    assert.equal(arr.status, 400);
  });

  test('a body over 1 MiB is 413, declared or chunked', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'a');
    const declared = await raw(
      srv,
      'POST',
      '/api/auth/login',
      { 'content-type': 'application/json', 'content-length': String(big.length) },
      big,
    );
    assert.equal(declared.status, 413);
    assert.equal(JSON.parse(declared.body).error.code, 'BODY_TOO_LARGE');
    const chunked = await raw(
      srv,
      'POST',
      '/api/auth/login',
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      big,
      true,
    );
    assert.equal(chunked.status, 413);
    assert.match(JSON.parse(chunked.body).error.message, /exceeds the limit of 1048576 bytes/);
  });

  test('unknown /api routes are 404 JSON; a wrong method is 405 with Allow', async () => {
    const r = await api(srv.baseUrl, '/api/does-not-exist');
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, {
      success: false,
      error: { message: 'No route for GET /api/does-not-exist', details: '', code: 'NO_SUCH_ROUTE' },
    });
    const m = await api(srv.baseUrl, '/api/auth/login');
    assert.equal(m.status, 405);
    assert.equal(m.res.headers.get('allow'), 'POST');
  });

  test('/ping is anonymous and raw', async () => {
    const r = await api(srv.baseUrl, '/ping');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'OK' });
  });

  test('after all of the above the server still answers', async () => {
    assert.equal((await api(srv.baseUrl, '/api/auth/config')).status, 200);
  });
});
