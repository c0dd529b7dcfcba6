/**
 * A TLS front for the private INN: a standalone `nnrpd -D -S` (implicit TLS, as on port 563) on its own loopback
 * port, reading the same spool as innd. Its certificate is issued at start-up by a throwaway CA made with openssl
 * (nothing committed); the CA's PEM is returned so tests can trust it. Reused while it runs (<root>/tls-state.json).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { freePort } from '../free-port.js';
import { writeCaSignedCert } from '../tls-certs.js';
import { alive, readState, spawnAsNews, stopDaemon, waitUntilReady } from './daemon.js';
import { INN_BIN } from './install.js';
import type { InnServer } from './server.js';

export interface InnTls {
  host: string;
  port: number;
  pid: number;
  /** PEM of the CA that issued nnrpd's certificate. */
  caCert: string;
}

export async function ensureInnTls(inn: InnServer): Promise<InnTls> {
  const dir = path.join(inn.root, 'etc', 'tls');
  const stateFile = path.join(inn.root, 'tls-state.json');
  const caFile = path.join(dir, 'ca.pem');
  const known = readState(stateFile);
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
  const pid = spawnAsNews(`${INN_BIN}/nnrpd`, ['-D', '-f', '-S', '-4', '127.0.0.1', '-p', String(port)], conf);
  const caCert = readFileSync(caFile, 'utf8');
  await waitUntilReady(
    pid,
    () => greetsOverTls(port, caCert),
    () => `nnrpd -S did not start on 127.0.0.1:${port}; see ${path.join(inn.root, 'log')}`,
  );
  writeFileSync(stateFile, JSON.stringify({ pid, port }));
  return { host: '127.0.0.1', port, pid, caCert };
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

/** Stop the TLS nnrpd recorded under root, if any (by its PID). */
export function stopInnTls(root: string): Promise<void> {
  return stopDaemon(path.join(root, 'tls-state.json'));
}
