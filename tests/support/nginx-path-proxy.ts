import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** Debian's nginx (scripts/system-deps.mjs) on loopback, proxying `prefix` to an upstream: an operator's front door. */
export interface NginxProxy {
  port: number;
  /** The public base URL of the upstream through the proxy, e.g. `http://127.0.0.1:PORT/spool`. */
  publicUrl: string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground (one process, no master) proxying `<prefix>/` to `upstream/`. */
export async function startPathProxy(upstream: string, prefix = '/spool', port?: number): Promise<NginxProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-nginx-'));
  const listen = port ?? (await freePort());
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;\nmaster_process off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 64; }\nhttp {\n  access_log off;\n` +
      `  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fcgi;\n` +
      `  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n` +
      `  server {\n    listen 127.0.0.1:${listen};\n    location ${prefix}/ {\n` +
      `      proxy_pass ${upstream.replace(/\/+$/, '')}/;\n      proxy_http_version 1.1;\n` +
      `      proxy_set_header Connection "";\n      proxy_buffering off;\n    }\n  }\n}\n`,
  );
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilListening(child, listen);
  return {
    port: listen,
    publicUrl: `http://127.0.0.1:${listen}${prefix}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the port accepts a connection; rejects if nginx exits first. */
async function untilListening(child: ChildProcess, port: number): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
