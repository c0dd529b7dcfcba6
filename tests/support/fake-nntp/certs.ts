/**
 * Throwaway TLS material for tests, made with openssl at test time (no private key is ever committed):
 * a CA with a server certificate it signed, and a separate self-signed certificate. Both name 127.0.0.1 and
 * localhost in subjectAltName so hostname checks pass; only trust decides the outcome.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestCerts {
  /** PEM of the CA that signed `signed`; trust it to accept `signed`. */
  caCert: string;
  /** Server key and certificate issued by the CA. */
  signed: { key: string; cert: string };
  /** Server key and certificate that vouch only for themselves. */
  selfSigned: { key: string; cert: string };
  /** Directory holding the PEM files (ca.pem, server.pem, server.key, self.pem, self.key); remove with cleanup(). */
  dir: string;
  cleanup(): void;
}

const SAN = 'subjectAltName=IP:127.0.0.1,DNS:localhost';

export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(path.join(tmpdir(), 'spool-certs-'));
  const f = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=Spool Test CA');
  ssl('req', ...ec, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(
    f('server.ext'),
    `${SAN}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  ssl(
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
    '2',
    '-extfile',
    f('server.ext'),
  );
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    f('self.key'),
    '-out',
    f('self.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    SAN,
  );
  const read = (name: string) => readFileSync(f(name), 'utf8');
  return {
    caCert: read('ca.pem'),
    signed: { key: read('server.key'), cert: read('server.pem') },
    selfSigned: { key: read('self.key'), cert: read('self.pem') },
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
