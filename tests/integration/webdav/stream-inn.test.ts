import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import type { PostedFile } from '../../support/inn/poster.js';
import { startServer, type TestServer } from '../../support/server.js';
import { AUTH, DAV_PASS, DAV_USER, addPosted, davUrl, rawRequest, sha256 } from './support.js';
import { innProvider } from '../../support/inn/provider.js';
import { film } from '../../support/media/film.js';

// Files posted to a real INN, put in the virtual tree, read back through the real server's /webdav.
let inn: InnServer;
let srv: TestServer;
let file: Buffer;
let posted: PostedFile;
let path: string;
let apiKey: string;
/** Changes to the tree need a console user; the webdav.user pair (AUTH) only reads. */
const OWNER = 'Basic ' + Buffer.from('owner:correct horse').toString('base64');

before(async () => {
  inn = await ensureInn();
  file = film(5 * 1024 * 1024 + 12_345);
  posted = await inn.postFile('Movie (2024).mkv', file, { articleSize: 256_000 });
  srv = await startServer({
    config: {
      auth: { login_required: true },
      webdav: { user: DAV_USER, password: DAV_PASS },
      providers: [innProvider(inn)],
    },
  });
  [path] = (await addPosted(srv, 'movies', 'Movie.2024', [posted])) as [string];
  const reg = await fetch(`${srv.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'owner', password: 'correct horse' }),
  });
  apiKey = ((await reg.json()) as { data: { user: { api_key: string } } }).data.user.api_key;
});
after(() => srv?.stop());

const get = (p: string, headers: Record<string, string> = {}) =>
  fetch(davUrl(srv, p), { headers: { Authorization: AUTH, ...headers } });

test('full GET is byte-exact (sha256) with ETag and Last-Modified', async () => {
  const res = await get(path);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-length'), String(file.length));
  assert.equal(res.headers.get('accept-ranges'), 'bytes');
  const body = Buffer.from(await res.arrayBuffer());
  assert.equal(sha256(body), sha256(file));
  const etag = res.headers.get('etag') as string;
  assert.equal((await get(path, { 'If-None-Match': etag })).status, 304);
  assert.equal((await get(path, { 'If-Modified-Since': res.headers.get('last-modified') as string })).status, 304);
});

test('200 random single-range reads return exactly the requested bytes', async () => {
  for (let i = 0; i < 200; i++) {
    const start = randomInt(0, file.length - 1);
    const end = Math.min(file.length - 1, start + randomInt(0, 600_000));
    const res = await get(path, { Range: `bytes=${start}-${end}` });
    assert.equal(res.status, 206);
    assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${file.length}`);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(file.subarray(start, end + 1)), `range ${start}-${end}`);
  }
});

test('multiple ranges come back as multipart/byteranges; suffix ranges; 416 past the end', async () => {
  const res = await get(path, { Range: 'bytes=0-9,3000000-3000099,-5' });
  assert.equal(res.status, 206);
  const type = res.headers.get('content-type') as string;
  const boundary = /boundary=(\S+)/.exec(type)?.[1] as string;
  const text = Buffer.from(await res.arrayBuffer());
  const parts = text.toString('latin1').split(`--${boundary}`).slice(1, -1);
  assert.equal(parts.length, 3);
  const bodies = parts.map((p) => Buffer.from(p.slice(p.indexOf('\r\n\r\n') + 4, -2), 'latin1'));
  assert.ok(bodies[0]!.equals(file.subarray(0, 10)));
  assert.ok(bodies[1]!.equals(file.subarray(3_000_000, 3_000_100)));
  assert.ok(bodies[2]!.equals(file.subarray(file.length - 5)));
  assert.match(parts[1]!, new RegExp(`Content-Range: bytes 3000000-3000099/${file.length}`));
  const bad = await get(path, { Range: `bytes=${file.length}-` });
  assert.equal(bad.status, 416);
  assert.equal(bad.headers.get('content-range'), `bytes */${file.length}`);
  const head = await fetch(davUrl(srv, path), {
    method: 'HEAD',
    headers: { Authorization: AUTH, Range: 'bytes=100-199' },
  });
  assert.equal(head.status, 206);
  assert.equal(head.headers.get('content-length'), '100');
});

test('20 clients streaming at once all get the right bytes', async () => {
  const sums = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const start = i * 200_000;
      const res = await get(path, { Range: `bytes=${start}-` });
      return sha256(Buffer.from(await res.arrayBuffer())) === sha256(file.subarray(start));
    }),
  );
  assert.deepEqual(sums, Array(20).fill(true));
});

test('clients that disconnect mid-body leave the server serving everyone else', async () => {
  for (let i = 0; i < 5; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = http.get(davUrl(srv, path), { headers: { Authorization: AUTH } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(e)));
    });
  }
  const res = await get(path, { Range: 'bytes=1000000-1999999' });
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(file.subarray(1_000_000, 2_000_000)));
});

test('an article missing everywhere: 502 before any byte, or a cut connection after only correct bytes', async () => {
  const other = film(1_000_000);
  const p2 = await inn.postFile('broken.mkv', other, { articleSize: 250_000 });
  p2.segments[0]!.messageId = `missing-first-${Date.now()}@spool.test`;
  const [brokenFirst] = (await addPosted(srv, 'movies', `Broken1-${Date.now()}`, [p2])) as [string];
  const res = await get(brokenFirst);
  assert.equal(res.status, 502);
  assert.match(await res.text(), /unavailable from every provider/);

  const p3 = await inn.postFile('broken2.mkv', other, { articleSize: 250_000 });
  p3.segments[2]!.messageId = `missing-mid-${Date.now()}@spool.test`;
  const [brokenMid] = (await addPosted(srv, 'movies', `Broken2-${Date.now()}`, [p3])) as [string];
  const got: Buffer[] = [];
  await new Promise<void>((resolve) => {
    http.get(davUrl(srv, brokenMid), { headers: { Authorization: AUTH } }, (r) => {
      assert.equal(r.statusCode, 200);
      r.on('data', (d: Buffer) => got.push(d));
      r.on('error', () => resolve());
      r.on('close', () => resolve());
    });
  });
  const body = Buffer.concat(got);
  assert.ok(body.length < other.length, 'the body is cut, never completed with wrong bytes');
  assert.ok(body.equals(other.subarray(0, body.length)), 'every byte sent is correct');
  assert.ok(
    srv.logs.some((l) => l.includes('article unavailable')),
    'reported for health',
  );
  // ...and remembered: the file info shows that one segment unavailable and the file partial.
  const missingId = p3.segments[2]!.messageId;
  let info:
    { status: string; available_segments: number; segments: { message_id: string; available: boolean }[] } | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${srv.baseUrl}/api/files/info?path=${encodeURIComponent(brokenMid)}`, {
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(res.status, 200);
    info = ((await res.json()) as { data: typeof info }).data;
    if (info!.available_segments < 4) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(info!.status, 'partial');
  assert.equal(info!.available_segments, 3);
  assert.deepEqual(
    info!.segments.filter((s) => !s.available).map((s) => s.message_id),
    [missingId],
  );
});

test('path traversal and encoded tricks are refused', async () => {
  for (const p of [
    '/webdav/complete/%2e%2e/%2e%2e/etc/passwd',
    '/webdav/complete/..%2f..%2fetc',
    '/webdav/a%00b',
    '/webdav/a%5c..%5cb',
    '/webdav/%ZZ',
  ]) {
    const res = await rawRequest(srv.port, 'GET', p);
    assert.equal(res.status, 400, p);
  }
  const res = await rawRequest(srv.port, 'PROPFIND', '/webdav/complete/../../api/config', { Depth: '0' });
  assert.ok(res.status === 400 || res.status === 404, `got ${res.status}`);
  assert.doesNotMatch(res.body.toString(), /providers|password/);
});

test('no credentials, wrong credentials: 401 with a Basic challenge; Depth infinity refused politely', async () => {
  const none = await fetch(davUrl(srv, '/'), { method: 'PROPFIND', headers: { Depth: '0' } });
  assert.equal(none.status, 401);
  assert.match(none.headers.get('www-authenticate') ?? '', /Basic/);
  const wrong = await fetch(davUrl(srv, '/'), {
    method: 'PROPFIND',
    headers: { Depth: '0', Authorization: 'Basic ' + Buffer.from('dav:nope').toString('base64') },
  });
  assert.equal(wrong.status, 401);
  const inf = await fetch(davUrl(srv, '/'), {
    method: 'PROPFIND',
    headers: { Depth: 'infinity', Authorization: AUTH },
  });
  assert.equal(inf.status, 403);
  assert.match(await inf.text(), /propfind-finite-depth/);
});

test('PUT takes small sidecars and refuses media', async () => {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const put = (name: string, body: Buffer) =>
    fetch(davUrl(srv, `${dir}/${name}`), { method: 'PUT', body, headers: { Authorization: OWNER } });
  assert.equal((await put('movie.en.srt', Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nHi\n'))).status, 201);
  assert.equal(await (await get(`${dir}/movie.en.srt`)).text(), '1\n00:00:01,000 --> 00:00:02,000\nHi\n');
  assert.equal((await put('other.mkv', Buffer.from('x'))).status, 403);
  assert.equal((await put('big.nfo', Buffer.alloc(17 * 1024 * 1024))).status, 413);
});

test('the sidecar cap is webdav.max_sidecar_size_mb, applied at once, for declared and chunked bodies', async () => {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const url = davUrl(srv, `${dir}/poster.jpg`);
  const put = (body: Buffer | ReadableStream) =>
    fetch(url, {
      method: 'PUT',
      body,
      headers: { Authorization: OWNER },
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  const chunked = (bytes: number) =>
    new ReadableStream({
      start(c) {
        for (let sent = 0; sent < bytes; sent += 256 * 1024)
          c.enqueue(new Uint8Array(Math.min(256 * 1024, bytes - sent)));
        c.close();
      },
    });
  assert.equal(srv.app().config.get().webdav.max_sidecar_size_mb, 16, 'default');
  assert.equal((await put(Buffer.alloc(3 * 1024 * 1024, 1))).status, 201);
  await srv.app().config.patchSection('webdav', { max_sidecar_size_mb: 2 });
  try {
    const declared = await put(Buffer.alloc(3 * 1024 * 1024, 2));
    assert.equal(declared.status, 413);
    assert.match(await declared.text(), /limited to 2097152 bytes/);
    assert.equal((await put(chunked(3 * 1024 * 1024))).status, 413, 'no Content-Length: cut at the cap');
    assert.equal((await put(Buffer.alloc(2 * 1024 * 1024, 3))).status, 204, 'at the cap: replaced');
    const back = Buffer.from(await (await get(`${dir}/poster.jpg`)).arrayBuffer());
    assert.ok(back.equals(Buffer.alloc(2 * 1024 * 1024, 3)), 'the refused uploads left the stored file alone');
  } finally {
    await srv.app().config.patchSection('webdav', { max_sidecar_size_mb: 16 });
  }
});
