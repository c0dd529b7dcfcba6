import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../support/server.js';

const INDEX = `<!doctype html><html><head><title>Spool</title></head><body><div id="root"></div>${'<!-- pad -->'.repeat(50)}</body></html>`;
const APP_JS = `console.log(${JSON.stringify('x'.repeat(2000))});`;

describe('the console: cache headers, ETag, gzip, SPA fallback', () => {
  let srv: TestServer;
  let dist: string;
  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'spool-pwa-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), APP_JS);
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Spool"}');
    // A file that is listed but gone when read, as during a console rebuild: start anyway and serve the rest.
    symlinkSync(join(dist, 'assets', 'removed-by-a-rebuild.js'), join(dist, 'assets', 'index-old.js'));
    srv = await startServer({ staticDir: dist });
  });
  after(async () => {
    await srv.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  test('hashed assets are immutable for a year; index, sw.js and manifest must revalidate', async () => {
    const asset = await fetch(`${srv.baseUrl}/assets/index-abc123.js`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await asset.text(), APP_JS);
    for (const path of ['/', '/index.html', '/sw.js', '/manifest.webmanifest']) {
      const r = await fetch(`${srv.baseUrl}${path}`);
      assert.equal(r.status, 200, path);
      assert.equal(r.headers.get('cache-control'), 'no-cache', path);
      await r.arrayBuffer();
    }
  });

  test('ETag answers 304; gzip is sent to clients that accept it', async () => {
    const first = await fetch(`${srv.baseUrl}/assets/index-abc123.js`);
    const etag = first.headers.get('etag') as string;
    await first.arrayBuffer();
    assert.ok(etag);
    const again = await fetch(`${srv.baseUrl}/assets/index-abc123.js`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    // fetch decompresses by itself: the header proves gzip went over the wire, the text that it was right.
    const zipped = await fetch(`${srv.baseUrl}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.headers.get('content-encoding'), 'gzip');
    assert.equal(await zipped.text(), APP_JS);
    const plain = await fetch(`${srv.baseUrl}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(Number(plain.headers.get('content-length')), APP_JS.length);
    await plain.arrayBuffer();
  });

  test('deep links get index.html; missing files, /api, /sabnzbd, /webdav and /ping do not', async () => {
    for (const path of ['/queue', '/config/webdav', '/health?x=1']) {
      const r = await fetch(`${srv.baseUrl}${path}`);
      assert.equal(r.status, 200, path);
      assert.equal(await r.text(), INDEX, path);
    }
    assert.equal((await fetch(`${srv.baseUrl}/assets/missing.js`)).status, 404);
    const apiMiss = await fetch(`${srv.baseUrl}/api/nothing`);
    assert.equal(apiMiss.status, 404);
    assert.match(apiMiss.headers.get('content-type') ?? '', /application\/json/);
    for (const path of ['/sabnzbd/nothing', '/webdav-nothing/../webdav/x']) {
      const r = await fetch(`${srv.baseUrl}${path}`);
      assert.notEqual(await r.text(), INDEX, path);
    }
    const post = await fetch(`${srv.baseUrl}/queue`, { method: 'POST' });
    assert.equal(post.status, 404, 'only GET/HEAD fall back to the console');
  });

  test('HEAD gives the headers with the real length and no body', async () => {
    const r = await fetch(`${srv.baseUrl}/index.html`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    assert.equal(r.status, 200);
    assert.equal(Number(r.headers.get('content-length')), INDEX.length);
    assert.equal(await r.text(), '');
  });
});

describe('console not built', () => {
  test('pages answer 503 with an HTML note saying how to build it; the API still works', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'spool-nopwa-'));
    const srv = await startServer({ staticDir: empty });
    try {
      const r = await fetch(`${srv.baseUrl}/`);
      assert.equal(r.status, 503);
      assert.match(r.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await r.text(), /console is not built.*npm run build/s);
      assert.equal((await fetch(`${srv.baseUrl}/api/auth/config`)).status, 200);
    } finally {
      await srv.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
