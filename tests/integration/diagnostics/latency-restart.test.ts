/**
 * The `provider_latency` check keeps its past across a restart (docs/diagnostics.md): a whole Spool reads the
 * private INN through a fast emulated link (bench/lib/delay-proxy.ts) while its round trip is sampled on a manual
 * clock into the store, is stopped, and starts again on the same data dir with the provider behind a 400 ms link.
 * Its first diagnostics after the restart compare the slow round trip with the stored fast past: a warning.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startDelayProxy, type DelayProxy } from '../../../bench/lib/delay-proxy.js';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import type { DiagnosticsReport } from '../../../appliance/diagnostics/diagnostics.wire.js';
import type { PoolMetrics } from '../../../appliance/nntp/index.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { film } from '../../support/media/film.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';
import { davGet, sha256, upload, waitForItem } from '../import/support.js';

let inn: InnServer;
const proxies: DelayProxy[] = [];
const cleanups: Array<() => unknown> = [];

before(async () => {
  inn = await ensureInn();
});
after(async () => {
  for (const c of cleanups.reverse()) await c();
  for (const p of proxies) await p.stop();
});

async function link(rttMs: number): Promise<number> {
  const proxy = await startDelayProxy({ target: inn, rttMs });
  proxies.push(proxy);
  return proxy.port;
}

function spool(port: number, clock: ManualClock, dataDir?: string): Promise<TestServer> {
  return startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn, { id: 'inn', host: '127.0.0.1', port })],
      import: { queue_processing_interval_seconds: 1 },
    },
    clock,
    dataDir,
    keepDataDir: true,
  });
}

async function innRtt(srv: TestServer): Promise<number | null> {
  const metrics = await api<PoolMetrics>(srv.baseUrl, '/api/system/pool/metrics');
  return metrics.body.data!.providers.find((p) => p.id === 'inn')?.rtt_ms ?? null;
}

const latencyFindings = async (srv: TestServer) =>
  (await api<DiagnosticsReport>(srv.baseUrl, '/api/system/diagnostics')).body.data!.findings.filter(
    (f) => f.check === 'provider_latency',
  );

test('a provider fast before a restart and slow after it is a warning: the past was kept', async () => {
  const clock = new ManualClock(Date.parse('2026-11-20T08:00:00Z'));
  const first = await spool(await link(0), clock);
  cleanups.push(() => rmSync(first.dataDir, { recursive: true, force: true }));
  const data = film(3 * 300_000);
  const posted = await inn.postFile('Latency.Film.2026.mkv', data, { articleSize: 300_000 });
  let path: string;
  try {
    const up = await upload(first.baseUrl, 'Latency.Film.2026.nzb', posted.nzbXml, { category: 'movies' });
    const item = await waitForItem(first.baseUrl, up.body.data!.id);
    assert.equal(item.status, 'completed', item.error_message ?? '');
    path = `${item.target_path}/Latency.Film.2026.mkv`;
    const fast = await waitUntil('a round trip measured', () => innRtt(first).then((r) => r ?? false));
    // Eight samples, one every five minutes of the manual clock, each written to the store.
    for (let i = 0; i < 8; i++) await clock.advance(5 * 60_000);
    await waitUntil('eight samples stored', async () => {
      const buckets = await first.app().stores.latency.since(0);
      return buckets.reduce((n, b) => n + b.samples.length, 0) >= 8;
    });
    assert.deepEqual(await latencyFindings(first), [], `as fast as its past (${fast} ms)`);
  } finally {
    await first.stop();
  }

  const second = await spool(await link(400), new ManualClock(clock.now() + 3_600_000), first.dataDir);
  cleanups.push(() => second.stop());
  const got = await davGet(second.baseUrl, path);
  assert.equal(got.status, 200);
  assert.equal(sha256(got.body), sha256(data), 'read through the slow link');
  const slow = (await innRtt(second))!;
  assert.ok(slow >= 400, `the slow link's round trip: ${slow} ms`);
  const [warning] = await latencyFindings(second);
  assert.equal(warning?.level, 'warning');
  assert.match(warning.message, /^Provider inn answers in \d+ ms now; over 40 minutes of samples in the last 30 days/);
});
