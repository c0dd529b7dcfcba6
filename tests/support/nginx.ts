/**
 * A real Debian nginx on loopback, as an operator's reverse proxy in front of Spool: it reaches Spool from
 * 127.0.0.2 (`proxy_bind`), so a test's own requests (from 127.0.0.1) are told apart from the proxy's, and it asks
 * an SSO server first (`auth_request`, the pattern Authelia and Authentik document for nginx) and forwards the
 * user and groups that server answers with, as `Remote-User` and `Remote-Groups`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface Nginx {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts nginx proxying to `upstreamPort` on 127.0.0.1, asking `ssoPort`'s `/verify` who the caller is. */
export async function startNginx(upstreamPort: number, ssoPort: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-nginx-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location = /sso-verify {
      internal;
      proxy_pass http://127.0.0.1:${ssoPort}/verify;
      proxy_http_version 1.1;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header X-Original-URI $request_uri;
    }
    location / {
      auth_request /sso-verify;
      auth_request_set $sso_user $upstream_http_remote_user;
      auth_request_set $sso_groups $upstream_http_remote_groups;
      proxy_set_header Remote-User $sso_user;
      proxy_set_header Remote-Groups $sso_groups;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_http_version 1.1;
      proxy_bind 127.0.0.2;
      proxy_pass http://127.0.0.1:${upstreamPort};
    }
  }
}
`,
  );
  const child: ChildProcess = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilListening(port, exited, () => stderr);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once nginx accepts connections; rejects if it exits first (with what it said). */
async function untilListening(port: number, exited: Promise<void>, stderr: () => string): Promise<void> {
  let dead = false;
  void exited.then(() => (dead = true));
  for (;;) {
    if (dead) throw new Error(`nginx exited: ${stderr()}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = createConnection({ host: '127.0.0.1', port }, () => {
        s.end();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise<void>((r) => setImmediate(r));
  }
}
