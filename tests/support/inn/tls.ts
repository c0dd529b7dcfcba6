/**
 * A TLS front for the private INN: a standalone `nnrpd -D -S` (implicit TLS, as on port 563) on its own loopback
 * port, reading the same spool as innd. Its certificate is issued at start-up by a throwaway CA made with openssl
 * (nothing committed); the CA's PEM is returned so tests can trust it. Reused while it runs (<root>/tls-state.json).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { writeCaSignedCert } from '../tls-certs.js';
import { INN_BIN } from './install.js';
import { newsId } from './config.js';
import type { InnServer } from './server.js';

export interface InnTls {
  host: string;
  port: number;
  pid: number;
  /** PEM of the CA that issued nnrpd's certificate. */
  caCert: string;
}

interface State {
  pid: number;
  port: number;
}

export async function ensureInnTls(inn: InnServer): Promise<InnTls> {
  const dir = path.join(inn.root, 'etc', 'tls');
  const stateFile = path.join(inn.root, 'tls-state.json');
  const caFile = path.join(dir, 'ca.pem');
  const known = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : undefined;
  if (
    known &&
    alive(known.pid) &&
    existsSync(caFile) &&
    (await greetsOverTls(known.port, readFileSync(caFile, 'utf8')))
  ) {
    return { host: '127.0.0.1', ...known, caCert: readFileSync(caFile, 'utf8') };
  }
  writeCaSignedCert(dir, { caName: 'Spool Test INN CA', days: 30 });
  const conf = path.join(inn.root, 'etc', 'inn-tls.conf');
  const base = readFileSync(path.join(inn.root, 'etc', 'inn.conf'), 'utf8')
    .split('\n')
    .filter((l) => !/^tls(capath|cafile|certfile|keyfile):/.test(l));
  const tlsConf = [
    `tlscapath: ${dir}`,
    `tlscafile: ${caFile}`,
    `tlscertfile: ${path.join(dir, 'server.pem')}`,
    `tlskeyfile: ${path.join(dir, 'server.key')}`,
  ];
  writeFileSync(conf, [...base, ...tlsConf].join('\n') + '\n');
  execFileSync('chown', ['-R', 'news:news', dir, conf]);
  const port = await freePort();
  const child = spawn(`${INN_BIN}/nnrpd`, ['-D', '-f', '-S', '-4', '127.0.0.1', '-p', String(port)], {
    env: { ...process.env, INNCONF: conf },
    uid: newsId('-u'),
    gid: newsId('-g'),
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  const caCert = readFileSync(caFile, 'utf8');
  const deadline = Date.now() + 15_000;
  while (!(await greetsOverTls(port, caCert))) {
    if (!alive(child.pid!) || Date.now() > deadline)
      throw new Error(`nnrpd -S did not start on 127.0.0.1:${port}; see ${path.join(inn.root, 'log')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  writeFileSync(stateFile, JSON.stringify({ pid: child.pid!, port }));
  return { host: '127.0.0.1', port, pid: child.pid!, caCert };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function greetsOverTls(port: number, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = tls.connect({ host: '127.0.0.1', port, ca });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(3000, () => done(false));
    s.once('error', () => done(false));
    s.once('data', (d) => done(d.toString('latin1').startsWith('200')));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Stop the TLS nnrpd recorded under root, if any (by its PID). */
export async function stopInnTls(root: string): Promise<void> {
  const stateFile = path.join(root, 'tls-state.json');
  if (!existsSync(stateFile)) return;
  const { pid } = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}
