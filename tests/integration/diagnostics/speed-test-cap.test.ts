/**
 * The provider speed test within the account's connection limit (docs/diagnostics.md, "The provider speed test"):
 * a whole Spool reads the private INN through a relay that plays an account capped at 4 connections (as
 * tests/integration/nntp/connection-cap-inn.test.ts does), with max_connections 4, behind an emulated link of
 * 1.5 MB/s per connection (bench/lib/delay-proxy.ts), so throughput grows with every connection the test adds. The pool holds connections to
 * it when the test starts; while the test runs the pool lends them (closes them once idle, opens none), so the
 * test ramps to all 4 of its own and the account never sees a fifth: nothing is refused. Afterwards the pool
 * serves again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDelayProxy } from '../../../bench/lib/delay-proxy.js';
import type { SpeedTestStatus } from '../../../appliance/diagnostics/diagnostics.wire.js';
import type { PoolMetrics } from '../../../appliance/nntp/index.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { film } from '../../support/media/film.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { Relay } from '../../support/tcp-relay.js';
import { davGet, sha256, upload, waitForItem } from '../import/support.js';

const CAP = 4;
let inn: InnServer;
const cleanups: Array<() => unknown> = [];

before(async () => {
  inn = await ensureInn();
});
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('the speed test and the pool together never open more than the account allows', async (t) => {
  const link = await startDelayProxy({ target: inn, rttMs: 0, connectionBytesPerSec: 1.5e6 });
  cleanups.push(() => link.stop());
  const relay = new Relay({ host: '127.0.0.1', port: link.port }, { cap: CAP });
  await relay.start();
  cleanups.push(() => relay.stop());
  const srv: TestServer = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn, { id: 'capped', host: '127.0.0.1', port: relay.port, max_connections: CAP })],
      import: { queue_processing_interval_seconds: 1 },
    },
    diagnostics: { speedTest: { warmupMs: 200, measureMs: 600 } },
  });
  cleanups.push(() => srv.stop());
  const data = film(8 * 250_000);
  const posted = await inn.postFile('Capped.Speed.2026.mkv', data, { articleSize: 250_000 });
  const up = await upload(srv.baseUrl, 'Capped.Speed.2026.nzb', posted.nzbXml, { category: 'movies' });
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const path = `${item.target_path}/Capped.Speed.2026.mkv`;
  assert.equal(sha256((await davGet(srv.baseUrl, path)).body), sha256(data));
  // The pool keeps its connections to the provider open (idle for up to 5 minutes): the test starts beside them.
  const pool = await api<PoolMetrics>(srv.baseUrl, '/api/system/pool/metrics');
  const before = relay.counts.active;
  assert.ok(before > 0, `the pool holds connections when the test starts: ${JSON.stringify(pool.body.data)}`);

  const started = await api<SpeedTestStatus>(srv.baseUrl, '/api/system/speedtest', {
    method: 'POST',
    json: { provider_id: 'capped' },
  });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const done = await srv.app().diagnostics.speedTest.settled();
  t.diagnostic(
    `pool connections at the start ${before}; steps ${done.steps.map((s) => `${s.connections}: ${s.mb_per_s} MB/s`).join(', ')}`,
  );
  assert.equal(done.state, 'done', JSON.stringify(done));
  assert.deepEqual(
    done.steps.map((s) => s.connections),
    [1, 2, 3, 4],
    'ramped to the account’s 4 (the provider’s max_connections), all of them the test’s own',
  );
  assert.equal(relay.counts.refused, 0, 'the account never saw more connections than it allows');
  assert.ok(relay.counts.maxActive <= CAP, `${relay.counts.maxActive} at once`);

  // The pool has the provider back: a read opens its connections again, still within the cap.
  const again = await davGet(srv.baseUrl, path);
  assert.equal(again.status, 200);
  assert.equal(sha256(again.body), sha256(data));
  assert.equal(relay.counts.refused, 0);
});
