/**
 * Security headers on every answer: nothing is MIME-sniffed, nothing may be framed (clickjacking), the console
 * runs under a CSP that allows only its own scripts, and everything else (API, WebDAV) under one that allows
 * nothing at all, so a file served from /webdav can never run script at the console's origin. Files on WebDAV
 * that are neither media nor plain text are served as attachments.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, startServer, type TestServer } from '../../support/server.js';

let srv: TestServer;
let dist: string;
let AUTH = '';

before(async () => {
  dist = mkdtempSync(join(tmpdir(), 'spool-pwa-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Spool</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  srv = await startServer({ staticDir: dist, config: { auth: { login_required: true } } });
  await api(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'owner', password: 'owner-password' },
  });
  AUTH = 'Basic ' + Buffer.from('owner:owner-password').toString('base64');
  const layout = { size: 10, segments: [{ messageId: 'a@b', start: 0, end: 10 }] };
  await srv.app().streaming.vfs.addJob({
    category: 'movies',
    jobName: 'Film',
    files: [{ name: 'Film.mkv', size: 10, layout, sourceNzbPath: '/nzb/Film.nzb' }],
  });
  for (const [name, body] of [
    ['Film.en.srt', '1\n00:00:01,000 --> 00:00:02,000\nHi\n'],
    ['Film.nfo', 'plot'],
    ['poster.jpg', 'jpeg'],
    ['page.html', '<script>alert(document.cookie)</script>'],
    ['notes.xml', '<x/>'],
  ]) {
    const res = await fetch(`${srv.baseUrl}/webdav/complete/movies/Film/${name}`, {
      method: 'PUT',
      headers: { Authorization: AUTH },
      body,
    });
    assert.equal(res.status, 201, name);
  }
});
after(async () => {
  await srv?.stop();
  rmSync(dist, { recursive: true, force: true });
});

function assertCommon(res: Response, what: string): void {
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(res.headers.get('x-frame-options'), 'DENY', what);
  assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, what);
}

test("the console's pages run under a CSP of their own origin only", async () => {
  for (const path of ['/', '/queue', '/assets/index-abc.js']) {
    const res = await fetch(srv.baseUrl + path);
    await res.arrayBuffer();
    assertCommon(res, path);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/, path);
    assert.match(csp, /script-src 'self'(;|$)/, path);
    assert.match(csp, /object-src 'none'/, path);
  }
});

test('API and WebDAV answers allow no content at all', async () => {
  const answers: [string, Response][] = [
    ['/api/auth/config', await fetch(`${srv.baseUrl}/api/auth/config`)],
    ['/api/user (401)', await fetch(`${srv.baseUrl}/api/user`)],
    ['/ping', await fetch(`${srv.baseUrl}/ping`)],
    [
      'PROPFIND',
      await fetch(`${srv.baseUrl}/webdav/`, { method: 'PROPFIND', headers: { Authorization: AUTH, Depth: '1' } }),
    ],
    ['listing', await fetch(`${srv.baseUrl}/webdav/complete/`, { headers: { Authorization: AUTH } })],
  ];
  for (const [what, res] of answers) {
    await res.arrayBuffer();
    assertCommon(res, what);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/, what);
    assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/, what);
  }
});

test('WebDAV files are attachments unless they are media or plain text', async () => {
  const disposition = async (name: string) => {
    const res = await fetch(`${srv.baseUrl}/webdav/complete/movies/Film/${name}`, {
      method: 'HEAD',
      headers: { Authorization: AUTH },
    });
    assertCommon(res, name);
    return res.headers.get('content-disposition');
  };
  assert.equal(await disposition('Film.mkv'), null);
  assert.equal(await disposition('poster.jpg'), null);
  assert.equal(await disposition('Film.nfo'), null);
  assert.equal(await disposition('Film.en.srt'), null, 'subtitles are text');
  assert.match((await disposition('page.html')) ?? '', /^attachment; filename\*=UTF-8''page\.html$/);
  assert.match((await disposition('notes.xml')) ?? '', /^attachment/);
});
