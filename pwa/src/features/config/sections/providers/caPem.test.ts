import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rootCertificates } from 'node:tls';
import { caPemError } from './caPem';
import { formErrors, PROVIDER_DEFAULTS } from './providerForm';

// Real certificates to paste: the CAs Node ships (public data).
const [one, two] = rootCertificates as [string, string];

test('a CA field that holds certificates passes; blank means none', () => {
  assert.equal(caPemError(''), null);
  assert.equal(caPemError(`${one}\n`), null);
  assert.equal(caPemError(`${one}\n${two}\n`), null);
  assert.equal(formErrors({ ...PROVIDER_DEFAULTS, tls: true, ca: one }).ca, undefined);
});

test('a paste that is not a certificate is a field error with a clear message', () => {
  assert.match(caPemError('hello') ?? '', /^Not a PEM certificate/);
  const lines = one.split('\n');
  const cut = [...lines.slice(0, 3), ...lines.slice(4)].join('\n');
  assert.match(caPemError(cut) ?? '', /^Certificate 1 of 1 does not parse/);
  assert.match(caPemError(`${one}\n${cut}`) ?? '', /^Certificate 2 of 2 does not parse/);
  const key = `${one}\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n`;
  assert.match(caPemError(key) ?? '', /^Only certificates/);
  assert.match(formErrors({ ...PROVIDER_DEFAULTS, tls: true, ca: 'hello' }).ca ?? '', /^Not a PEM certificate/);
});
