/** The NNTP engine over implicit TLS against a real INN (standalone `nnrpd -S`, certificate from a test CA). */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { ensureInnTls, type InnTls } from '../../support/inn/tls.js';
import { NntpPool } from '../../../appliance/nntp/pool.js';
import { TlsError } from '../../../appliance/nntp/errors.js';
import { NntpConnection } from '../../../appliance/nntp/connection.js';
import { checkProvider } from '../../../appliance/nntp/provider-check.js';
import type { ProviderConfig } from '../../../appliance/nntp/types.js';

let inn: InnServer;
let innTls: InnTls;
const pools: NntpPool[] = [];
const provider = (over: Partial<ProviderConfig> = {}): ProviderConfig => ({
  id: 'inn-tls',
  host: innTls.host,
  port: innTls.port,
  username: inn.username,
  password: inn.password,
  max_connections: 3,
  tls: true,
  insecure_tls: false,
  enabled: true,
  is_backup_provider: false,
  ...over,
});
const pool = (list: ProviderConfig[], opts: ConstructorParameters<typeof NntpPool>[1] = {}) => {
  const p = new NntpPool(list, { connectTimeoutMs: 5000, ...opts });
  pools.push(p);
  return p;
};

before(async () => {
  inn = await ensureInn();
  innTls = await ensureInnTls(inn);
});
after(() => Promise.all(pools.map((p) => p.close())));

test('a file posted to INN comes back byte-exact over TLS with a trusted CA, pipelined on 3 connections', async () => {
  const file = randomBytes(6 * 200_000 + 777);
  const posted = await inn.postFile('tls.bin', file, { articleSize: 200_000 });
  const p = pool([provider()], { tlsCa: innTls.caCert, pipelineDepth: 2 });
  const parts = await Promise.all(posted.messageIds.map((id) => p.body(id)));
  assert.ok(Buffer.concat(parts.map((x) => x.data)).equals(file));
  assert.equal(await p.stat(posted.messageIds[0]!), true);
  const m = p.metrics();
  assert.ok(m.total_bytes_downloaded > file.length);
  assert.equal(m.error_rate_percent, 0);
});

test('INN over TLS: insecure_tls accepts the unknown CA, a strict client refuses it clearly', async () => {
  const posted = await inn.postFile('tls-small.bin', randomBytes(30_000), { articleSize: 30_000 });
  const lax = pool([provider({ insecure_tls: true })]);
  assert.equal((await lax.body(posted.messageIds[0]!)).data.length, 30_000);
  const strict = pool([provider()]);
  await assert.rejects(strict.body(posted.messageIds[0]!), (e: unknown) => {
    assert.ok(e instanceof TlsError, String(e));
    assert.match(
      e.message,
      /is not trusted: .*certificate.*\((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\).*Insecure TLS/,
    );
    return true;
  });
});

test('checkProvider against INN over TLS', async () => {
  assert.deepEqual(await checkProvider(provider(), { tlsCa: innTls.caCert }), { success: true });
  assert.deepEqual(await checkProvider(provider({ insecure_tls: true })), { success: true });
  const wrong = await checkProvider(provider({ password: 'wrong' }), { tlsCa: innTls.caCert });
  assert.match(wrong.error_message!, /^Authentication failed \(48\d\)/);
  const untrusted = await checkProvider(provider());
  assert.equal(untrusted.success, false);
  assert.match(untrusted.error_message!, /not trusted/);
});

test('nnrpd does not resume TLS sessions (one process per reader): offering one falls back to a full handshake', async () => {
  const sessions: Buffer[] = [];
  const opts = {
    host: innTls.host,
    port: innTls.port,
    username: inn.username,
    password: inn.password,
    tls: true,
    insecureTls: false,
    tlsCa: innTls.caCert,
    onTlsSession: (s: Buffer) => sessions.push(s),
  };
  const posted = await inn.postFile('tls-resume.bin', randomBytes(50_000), { articleSize: 50_000 });
  const first = await NntpConnection.open(opts);
  await first.date();
  assert.ok(sessions.length >= 1, 'nnrpd issued a session ticket');
  // Each connection is its own nnrpd process with its own ticket key, so the ticket is refused; the pool's
  // resumption must cost nothing then (resumption itself is proven against a Node TLS server, appliance/nntp/tls.test.ts).
  const second = await NntpConnection.open({ ...opts, tlsSession: sessions.at(-1) });
  assert.equal(second.tlsSessionReused, false);
  assert.equal((await second.body(`<${posted.messageIds[0]!}>`)).data.length, 50_000);
  await Promise.all([first.quit(), second.quit()]);
});
