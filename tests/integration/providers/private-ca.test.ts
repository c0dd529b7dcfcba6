/**
 * A provider whose certificate comes from a private CA (INN's TLS front, certificate issued by a throwaway CA made
 * at test time, tests/support/inn/tls.ts): without the CA Spool refuses the chain; with the provider's `ca` set
 * and `insecure_tls: false` it connects, imports and streams. A PEM that does not parse is a field error.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { ensureInnTls, type InnTls } from '../../support/inn/tls.js';
import { startServer } from '../../support/server.js';
import { api, davGet, sha256, upload, waitForItem, type TestServer } from '../import/support.js';
import { film } from '../../support/media/film.js';

let inn: InnServer;
let innTls: InnTls;
let srv: TestServer;

const tlsProvider = (over: Record<string, unknown> = {}) => ({
  host: innTls.host,
  port: innTls.port,
  username: inn.username,
  password: inn.password,
  max_connections: 4,
  tls: true,
  insecure_tls: false,
  ...over,
});

before(async () => {
  inn = await ensureInn();
  innTls = await ensureInnTls(inn);
  srv = await startServer({
    config: {
      auth: { login_required: false },
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
    },
  });
});
after(() => srv?.stop());

test('the connection test refuses the private chain without the CA and passes with it', async () => {
  const without = await api<{ success: boolean; error_message?: string }>(srv.baseUrl, '/api/providers/test', {
    method: 'POST',
    json: tlsProvider(),
  });
  assert.equal(without.body.data?.success, false);
  assert.match(without.body.data?.error_message ?? '', /not trusted.*CA certificate/);
  const withCa = await api<{ success: boolean }>(srv.baseUrl, '/api/providers/test', {
    method: 'POST',
    json: tlsProvider({ ca: innTls.caCert }),
  });
  assert.deepEqual(withCa.body.data, { success: true });
});

test('a CA that is not a PEM certificate is a field error, on save and on test', async () => {
  const cut = innTls.caCert.replace(/\n[A-Za-z0-9+/]{20}/, '\n');
  for (const [ca, message] of [
    ['not a certificate', /^Not a PEM certificate/],
    [cut, /^Certificate 1 of 1 does not parse/],
    [`${innTls.caCert}\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n`, /^Only certificates/],
  ] as const) {
    const saved = await api(srv.baseUrl, '/api/providers', { method: 'POST', json: tlsProvider({ ca }) });
    assert.equal(saved.status, 400);
    const details = saved.body.error?.details as { field: string; message: string }[];
    assert.equal(details.length, 1, JSON.stringify(details));
    assert.equal(details[0]!.field, 'ca');
    assert.match(details[0]!.message, message);
    const tested = await api(srv.baseUrl, '/api/providers/test', { method: 'POST', json: tlsProvider({ ca }) });
    assert.equal(tested.status, 400);
  }
  const config = await api<{ providers: unknown[] }>(srv.baseUrl, '/api/config');
  assert.deepEqual(config.body.data?.providers, [], 'nothing was saved');
});

test('with the provider CA set and insecure_tls false an NZB imports and streams over TLS; without it, it cannot', async () => {
  const saved = await api<{ id: string; ca: string }>(srv.baseUrl, '/api/providers', {
    method: 'POST',
    json: tlsProvider({ ca: innTls.caCert }),
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const provider = saved.body.data!;
  assert.equal(provider.ca, innTls.caCert, 'the CA is no secret: it is shown as saved');

  const data = film(700_000);
  const posted = await inn.postFile('Private.Ca.Show.mkv', data, { articleSize: 250_000 });
  const added = await upload(srv.baseUrl, 'Private.Ca.Show.nzb', posted.nzbXml);
  const item = await waitForItem(srv.baseUrl, (added.body.data as { id: number }).id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const read = await davGet(srv.baseUrl, `${item.target_path}/Private.Ca.Show.mkv`);
  assert.equal(read.status, 200);
  assert.equal(sha256(read.body), sha256(data));

  // Take the CA away: the pool reconnects with the new settings and the chain is refused again (an outage: the
  // import waits and retries, it does not fail the NZB).
  const cleared = await api(srv.baseUrl, `/api/providers/${provider.id}`, { method: 'PUT', json: { ca: '' } });
  assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
  const other = await inn.postFile('Private.Ca.Other.mkv', film(50_000), { articleSize: 50_000 });
  const again = await upload(srv.baseUrl, 'Private.Ca.Other.nzb', other.nzbXml);
  const waiting = await waitForItem(srv.baseUrl, (again.body.data as { id: number }).id, [
    'retrying',
    'completed',
    'failed',
  ]);
  assert.equal(waiting.status, 'retrying');
  assert.match(waiting.error_message ?? '', /not trusted/);
});
