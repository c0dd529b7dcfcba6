/** TLS against the fake server with certificates made at test time: trust, insecure_tls, clear refusals. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { FakeNntpServer } from '../../tests/support/fake-nntp/server.js';
import { addYencArticle, fakeNntpFixture, fakeProvider } from '../../tests/support/fake-nntp/fixtures.js';
import { makeTestCerts, type TestCerts } from '../../tests/support/fake-nntp/certs.js';
import { NntpPool } from './pool.js';
import { NntpConnection } from './connection.js';
import { NoProviderError, TlsError } from './errors.js';
import { checkProvider } from './provider-check.js';
import type { ProviderConfig } from './types.js';
import { waitUntil } from '../../tests/support/wait.js';

let certs: TestCerts;
let caSigned: FakeNntpServer;
let selfSigned: FakeNntpServer;
let plain: FakeNntpServer;
const data = randomBytes(300_000);

const { fake, closeAfterTests } = fakeNntpFixture();

before(async () => {
  certs = makeTestCerts();
  const auth = { username: 'u', password: 'p' };
  caSigned = await fake({ ...auth, tls: certs.signed });
  selfSigned = await fake({ ...auth, tls: certs.selfSigned });
  plain = await fake(auth);
  for (const s of [caSigned, selfSigned, plain]) addYencArticle(s, 't@tls', data);
});
after(() => certs.cleanup());

/** The fake's AUTHINFO pair over implicit TLS. */
const provider = (s: FakeNntpServer, over: Partial<ProviderConfig> = {}): ProviderConfig =>
  fakeProvider(s, { tls: true, ...over });

function pool(list: ProviderConfig[], opts: ConstructorParameters<typeof NntpPool>[1] = {}): NntpPool {
  return closeAfterTests(new NntpPool(list, { connectTimeoutMs: 2000, breakerCooldownMs: 60_000, ...opts }));
}

test('a certificate from a trusted CA is accepted; articles come back byte-exact over TLS with pipelining', async () => {
  const p = pool([provider(caSigned)], { tlsCa: certs.caCert, pipelineDepth: 3 });
  const got = await Promise.all(Array.from({ length: 6 }, () => p.body('t@tls')));
  for (const g of got) assert.ok(g.data.equals(data));
  assert.equal(await p.stat('t@tls'), true);
  assert.equal(caSigned.stats.tlsFailures, 0);
  assert.ok(caSigned.stats.maxActiveConnections <= 2);
});

test('insecure_tls: true accepts a self-signed certificate', async () => {
  const p = pool([provider(selfSigned, { insecure_tls: true })]);
  assert.ok((await p.body('t@tls')).data.equals(data));
});

test('insecure_tls: false refuses a self-signed certificate with a clear TlsError and puts the provider aside', async () => {
  const before = selfSigned.stats.commands.BODY ?? 0;
  const p = pool([provider(selfSigned)]);
  await assert.rejects(p.body('t@tls'), (e: unknown) => {
    assert.ok(e instanceof TlsError, String(e));
    assert.equal(e.kind, 'tls');
    assert.equal(e.retryable, false);
    assert.equal(e.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
    assert.match(e.message, /^TLS certificate of 127\.0\.0\.1:\d+ is not trusted: self[- ]signed certificate/);
    assert.match(e.message, /turn on Insecure TLS/);
    return true;
  });
  assert.equal(selfSigned.stats.commands.BODY ?? 0, before, 'no command was sent over an untrusted connection');
  // The server learns of the refusal a moment after the client (the alert crosses the socket).
  await waitUntil('the server to see the refusal', () => selfSigned.stats.tlsFailures > 0, { everyMs: 10 });
  assert.ok(selfSigned.stats.tlsFailures >= 1, 'the server saw the handshake refused');
  assert.equal(p.metrics().providers[0]!.cooling_down, true);
  await assert.rejects(p.body('t@tls'), NoProviderError);
  // Same refusal for a CA the client does not know.
  await assert.rejects(
    NntpConnection.open({ ...provider(caSigned), insecureTls: false }),
    (e: unknown) => e instanceof TlsError && /not trusted/.test(e.message),
  );
});

test('TLS to a plain-text port fails as a TLS error that names the likely cause', async () => {
  await assert.rejects(
    NntpConnection.open({ ...provider(plain), insecureTls: true, connectTimeoutMs: 2000 }),
    (e: unknown) => {
      assert.ok(e instanceof TlsError, String(e));
      assert.match(e.message, /TLS handshake with 127\.0\.0\.1:\d+ failed: .*is this the provider's TLS port\?/);
      return true;
    },
  );
});

test('checkProvider over TLS: trusted CA, insecure, refused with the reason, wrong password', async () => {
  assert.deepEqual(await checkProvider(provider(caSigned), { tlsCa: certs.caCert }), { success: true });
  assert.deepEqual(await checkProvider(provider(selfSigned, { insecure_tls: true })), { success: true });
  const refused = await checkProvider(provider(selfSigned));
  assert.equal(refused.success, false);
  assert.match(refused.error_message!, /is not trusted: self[- ]signed certificate .*Insecure TLS/);
  const badAuth = await checkProvider(provider(caSigned, { password: 'wrong' }), { tlsCa: certs.caCert });
  assert.equal(badAuth.error_message, 'Authentication failed (481): check username and password');
});

test('NODE_EXTRA_CA_CERTS in a fresh process makes a private CA trusted for checkProvider', async () => {
  const run = promisify(execFile);
  const args = [
    '--import',
    'tsx',
    'tests/support/fake-nntp/check-provider-cli.ts',
    caSigned.host,
    String(caSigned.port),
    '1',
    '0',
    'u',
    'p',
  ];
  const withCa = await run(process.execPath, args, {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: `${certs.dir}/ca.pem` },
  });
  assert.deepEqual(JSON.parse(withCa.stdout), { success: true });
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const without = await run(process.execPath, args, { env });
  const r = JSON.parse(without.stdout) as { success: boolean; error_message: string };
  assert.equal(r.success, false);
  assert.match(r.error_message, /not trusted: unable to verify the first certificate/);
});

test('TLS session resumption: a second connection resumes the session the first one was given', async () => {
  const sessions: Buffer[] = [];
  const opts = {
    ...provider(caSigned),
    insecureTls: false,
    tlsCa: certs.caCert,
    onTlsSession: (s: Buffer) => sessions.push(s),
  };
  const first = await NntpConnection.open(opts);
  assert.equal(first.tlsSessionReused, false, 'a full handshake the first time');
  await first.date(); // TLS 1.3 tickets come after the handshake; one round trip later we hold one
  assert.ok(sessions.length >= 1, 'the server issued a session');
  const second = await NntpConnection.open({ ...opts, tlsSession: sessions.at(-1) });
  assert.equal(second.tlsSessionReused, true, 'resumed');
  assert.ok((await second.body('<t@tls>')).data.equals(data), 'byte-exact over the resumed session');
  await Promise.all([first.quit(), second.quit()]);
});

test('the pool resumes TLS sessions when it reopens connections (after a drop, and for the warm pool)', async () => {
  const p = pool([provider(caSigned, { max_connections: 4 })], { tlsCa: certs.caCert });
  const resumedBefore = caSigned.stats.tlsResumed;
  assert.ok((await p.body('t@tls', { priority: 'stream' })).data.equals(data));
  // Streaming opens connections ahead of need (half of max_connections): those after the first resume.
  await waitUntil('a resumed session', () => caSigned.stats.tlsResumed !== resumedBefore, { everyMs: 20 });
  caSigned.dropAll();
  const afterDrop = caSigned.stats.tlsResumed;
  assert.ok((await p.body('t@tls', { priority: 'stream' })).data.equals(data));
  await waitUntil('a resumed reconnection', () => caSigned.stats.tlsResumed !== afterDrop, { everyMs: 20 });
  assert.ok(
    caSigned.stats.tlsResumed > afterDrop,
    `reconnections resumed (${caSigned.stats.tlsResumed - resumedBefore})`,
  );
});
