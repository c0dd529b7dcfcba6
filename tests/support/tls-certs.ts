/**
 * Throwaway TLS material made with openssl at test time (no private key is ever committed). Certificates are
 * P-256 and name 127.0.0.1 and localhost in subjectAltName, so hostname checks pass and only trust decides the
 * outcome. Used by the fake NNTP server's certificates and by the TLS front of the private INN.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SAN = 'subjectAltName=IP:127.0.0.1,DNS:localhost';
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * Writes a CA (ca.pem, ca.key) and a server certificate it signed (server.pem, server.key) into `dir`, creating it.
 * Keys are 0600 so a server running as another user (INN's `news`) can be given the directory by chown alone.
 */
export function writeCaSignedCert(dir: string, opts: { caName: string; days: number }): void {
  mkdirSync(dir, { recursive: true });
  const f = (name: string) => path.join(dir, name);
  const days = String(opts.days);
  openssl(
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-days',
    days,
    '-subj',
    `/CN=${opts.caName}`,
  );
  openssl('req', ...EC_KEY, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(
    f('server.ext'),
    `${SAN}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-out',
    f('server.pem'),
    '-days',
    days,
    '-extfile',
    f('server.ext'),
  );
  for (const key of ['ca.key', 'server.key']) chmodSync(f(key), 0o600);
}

/** Writes a certificate that vouches only for itself (self.pem, self.key) into `dir`. */
export function writeSelfSignedCert(dir: string, opts: { days: number }): void {
  const f = (name: string) => path.join(dir, name);
  openssl(
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    f('self.key'),
    '-out',
    f('self.pem'),
    '-days',
    String(opts.days),
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    SAN,
  );
  chmodSync(f('self.key'), 0o600);
}
