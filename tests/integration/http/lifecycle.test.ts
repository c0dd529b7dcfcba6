import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { api, startServer } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';

const ROOT = resolve(import.meta.dirname, '../../..');

interface Child {
  proc: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

function runMain(env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'appliance/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, SPOOL_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child: Child = {
    proc,
    stdout: '',
    stderr: '',
    exited: new Promise((r) => proc.on('exit', (code, signal) => r({ code, signal }))),
  };
  proc.stdout!.on('data', (d: Buffer) => (child.stdout += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (child.stderr += d.toString()));
  return child;
}

/** Waits for the "ready" log line (tests/support/wait.ts) and returns the port it names. */
function readyPort(child: Child): Promise<number> {
  return waitUntil(
    () => `the ready line: ${child.stdout} ${child.stderr}`,
    () => {
      const m = /"msg":"ready","port":(\d+)/.exec(child.stdout);
      if (m) return Number(m[1]);
      if (child.proc.exitCode !== null) throw new Error(`exited early: ${child.stderr}`);
      return undefined;
    },
    { everyMs: 50 },
  );
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'spool-main-'));
}

test('SIGTERM: a request in progress finishes, then the process exits 0', async () => {
  const data = tempDir();
  const child = runMain({ SPOOL_DATA: data, SPOOL_PORT: '0' });
  try {
    const port = await readyPort(child);
    const base = `http://127.0.0.1:${port}`;
    assert.deepEqual((await api(base, '/ping')).body, { status: 'OK' });
    // Start a request whose body arrives slowly: half now, SIGTERM, the rest later. The server must finish it.
    const answer = new Promise<{ status: number; body: string }>((resolveAnswer, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/auth/register',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolveAnswer({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"username": "late", ');
      setTimeout(() => {
        child.proc.kill('SIGTERM');
        setTimeout(() => req.end('"password": "late-password"}'), 300);
      }, 300);
    });
    const done = await answer;
    assert.equal(done.status, 200, `the request in flight was answered: ${done.body}`);
    assert.equal(JSON.parse(done.body).data.user.name, 'late');
    const exit = await child.exited;
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.match(child.stdout, /"msg":"stopped"/);
  } finally {
    child.proc.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
});

test('an invalid config file: one clear line on stderr and exit code 1', async () => {
  const data = tempDir();
  writeFileSync(join(data, 'config.yaml'), 'webdav:\n  port: "not a port"\nauth:\n  login_required: maybe\n');
  const child = runMain({ SPOOL_DATA: data, SPOOL_PORT: '0' });
  try {
    const exit = await child.exited;
    assert.equal(exit.code, 1);
    const lines = child.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line: ${child.stderr}`);
    assert.match(
      lines[0] as string,
      /^spool: Configuration file .*config\.yaml has errors.*webdav\.port.*auth\.login_required/,
    );
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('a busy port: one clear line and exit code 1', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as { port: number }).port;
  const data = tempDir();
  const child = runMain({ SPOOL_DATA: data, SPOOL_PORT: String(port) });
  try {
    const exit = await child.exited;
    assert.equal(exit.code, 1);
    assert.equal(child.stderr.trim(), `spool: Cannot listen on 127.0.0.1:${port} (port in use or not permitted)`);
  } finally {
    blocker.close();
    rmSync(data, { recursive: true, force: true });
  }
});

test('POST /system/restart answers, rebuilds the app from the file on the same port, and keeps the users', async () => {
  const srv = await startServer({ config: { auth: { login_required: true } } });
  try {
    const reg = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: { username: 'admin', password: 'admin-password' },
    });
    const key = reg.body.data!.user.api_key;
    const before = srv.app();
    // A change to the file that only a rebuild picks up (reload would too, but restart must re-read it).
    writeFileSync(
      srv.configPath,
      (await import('yaml')).stringify({
        ...before.config.get(),
        auth: { login_required: false, registration_enabled: false },
      }),
    );
    const r = await api(srv.baseUrl, '/api/system/restart', {
      method: 'POST',
      json: { force: false },
      headers: { 'x-api-key': key },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { message: 'Server restart initiated' });
    await waitUntil('the in-process restart', () => srv.restarts() >= 1, { everyMs: 20 });
    assert.equal(srv.restarts(), 1);
    assert.notEqual(srv.app(), before, 'a new app object');
    assert.deepEqual((await api(srv.baseUrl, '/api/auth/config')).body.data, {
      login_required: false,
      password_login: true,
      oidc: null,
    });
    assert.equal(
      (await api(srv.baseUrl, '/api/user', { headers: { 'x-api-key': key } })).status,
      200,
      'users survived in LMDB',
    );
    const bad = await api(srv.baseUrl, '/api/system/restart', { method: 'POST', json: { force: 'yes' } });
    assert.equal(bad.status, 400);
  } finally {
    await srv.stop();
  }
});
