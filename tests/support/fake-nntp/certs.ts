/**
 * Throwaway TLS material for tests, made with openssl at test time (no private key is ever committed):
 * a CA with a server certificate it signed, and a separate self-signed certificate. Both name 127.0.0.1 and
 * localhost in subjectAltName so hostname checks pass; only trust decides the outcome.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeCaSignedCert, writeSelfSignedCert } from '../tls-certs.js';

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

export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(path.join(tmpdir(), 'spool-certs-'));
  writeCaSignedCert(dir, { caName: 'Spool Test CA', days: 2 });
  writeSelfSignedCert(dir, { days: 2 });
  const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
  return {
    caCert: read('ca.pem'),
    signed: { key: read('server.key'), cert: read('server.pem') },
    selfSigned: { key: read('self.key'), cert: read('self.pem') },
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
