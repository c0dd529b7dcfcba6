import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { api, startServer, type TestServer } from '../../support/server.js';

// Debian `litmus` (the WebDAV conformance suite) against the real server, with login required, signed in as a
// Spool user (litmus writes, and the webdav.user pair only reads). Every suite must report zero failures and
// zero warnings.
let srv: TestServer;
before(async () => {
  srv = await startServer({
    config: { auth: { login_required: true }, webdav: { user: 'dav', password: 's3cret-dav' } },
  });
  await api(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'litmus', password: 'litmus-pass' },
  });
});
after(() => srv.stop());

function litmus(url: string, user: string, pass: string): Promise<{ code: number | null; out: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'litmus-'));
  return new Promise((resolve) => {
    const p = spawn('litmus', [url, user, pass], {
      cwd,
      env: { ...process.env, TESTS: 'basic copymove props locks http' },
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => p.kill('SIGKILL'), 240_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, out });
    });
  });
}

test('litmus: basic, copymove, props, locks and http all pass', async () => {
  const { code, out } = await litmus(`${srv.baseUrl}/webdav/`, 'litmus', 'litmus-pass');
  const summaries = [...out.matchAll(/summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)];
  assert.deepEqual(
    summaries.map((m) => m[1]),
    ['basic', 'copymove', 'props', 'locks', 'http'],
    out,
  );
  for (const m of summaries) assert.equal(m[4], '0', `${m[1]} had failures:\n${out}`);
  assert.doesNotMatch(out, /WARNING|FAIL/, out);
  assert.equal(code, 0, out);
});

test('litmus without credentials cannot even start', async () => {
  const { code, out } = await litmus(`${srv.baseUrl}/webdav/`, 'dav', 'wrong');
  assert.notEqual(code, 0);
  assert.match(out, /401|authentication|FAIL/i);
});
