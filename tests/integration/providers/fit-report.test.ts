import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { CandidateFit, CostViewResponse, FitReportResponse } from '../../../appliance/providers/fit.wire.js';
import { FakeNntpServer } from '../../support/fake-nntp/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { stopInnEntirely } from '../../support/inn/outage.js';
import type { PostedFile } from '../../support/inn/poster.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { upload, waitForItem } from '../import/support.js';
import { film } from '../../support/media/film.js';

// Issue 33 item 5: the fit report. The primary (the shared INN) holds two imported files of 20 articles each, one
// posted now and one dated two years back; after the import it loses 10 of each (cancelled). The candidate (a
// second real INN) holds 5 of each file's 10 lost articles and 3 of the others: it fills exactly half of the
// primary's misses in both age bands. A second candidate with a budget of 6 STATs an hour (a fake server that has
// nothing) gets no more than that; a third answers nonsense to every STAT and is reported, never counted.
const root = `/var/tmp/spool-inn-fit-${process.pid}`;
const ARTICLE = 4_000;
const TWO_YEARS_S = 2 * 365 * 86_400;
let primary: InnServer;
let candidate: InnServer;
let tight: FakeNntpServer;
let nonsense: FakeNntpServer;
let nonsenseStats = 0;
let srv: TestServer;

before(async () => {
  primary = await ensureInn();
  candidate = await ensureInn(root);
  tight = await FakeNntpServer.start();
  nonsense = await FakeNntpServer.start({
    chaos: (line) => (line.startsWith('STAT') ? (nonsenseStats++, Buffer.from('999 I have no idea\r\n')) : undefined),
  });
  srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(primary, { id: 'primary' })],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
    },
  });
});
after(async () => {
  await srv?.stop();
  await tight?.close();
  await nonsense?.close();
  await stopInnEntirely(root);
  rmSync(root, { recursive: true, force: true });
});

/** Posts a file of 20 articles to the primary, imports it (its NZB dated `ageS` seconds back), returns what was posted. */
async function importFile(name: string, ageS: number): Promise<PostedFile> {
  const posted = await primary.postFile(name, film(20 * ARTICLE, name), { articleSize: ARTICLE });
  const date = Math.floor(Date.now() / 1000) - ageS;
  const nzb = posted.nzbXml.replace(/date="\d+"/g, `date="${date}"`);
  const up = await upload(srv.baseUrl, `${name}.nzb`, nzb);
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  return posted;
}

/** The primary loses the even articles; the candidate gets every fourth (half of those lost) and parts 1, 3, 5. */
async function splitArticles(posted: PostedFile): Promise<void> {
  const ids = posted.messageIds;
  cancelArticles(
    primary,
    ids.filter((_, i) => i % 2 === 0),
  );
  const onCandidate = ids.filter((_, i) => i % 4 === 0 || i === 1 || i === 3 || i === 5);
  await candidate.postFile('copy.bin', randomBytes(onCandidate.length * ARTICLE), {
    articleSize: ARTICLE,
    messageIds: onCandidate,
  });
}

async function report(): Promise<FitReportResponse> {
  const res = await api<FitReportResponse>(srv.baseUrl, '/api/providers/fit');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data!;
}

/** Polls the report until `done` holds for it (the sampler works in the background). */
async function reportWhen(done: (r: FitReportResponse) => boolean): Promise<FitReportResponse> {
  for (;;) {
    const r = await report();
    if (done(r)) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const fitOf = (r: FitReportResponse, id: string): CandidateFit => r.candidates.find((c) => c.provider === id)!;

function addCandidate(over: Record<string, unknown>) {
  return api(srv.baseUrl, '/api/providers', {
    method: 'POST',
    json: { username: '', password: '', max_connections: 2, candidate: true, ...over },
  });
}

test('bad fit and price values are refused with the field message, and nothing is saved', async () => {
  const bad = await addCandidate({
    id: 'bad',
    host: '127.0.0.1',
    port: 119,
    fit_stats_per_hour: 0,
    price_per_block: 5,
  });
  assert.equal(bad.status, 400, JSON.stringify(bad.body));
  const text = JSON.stringify(bad.body.error);
  assert.match(text, /fit_stats_per_hour/);
  assert.match(text, /Must be between 1 and 100000/);
  assert.match(text, /A block price needs the block size in GB/);
  const list = await api<Array<{ id: string }>>(srv.baseUrl, '/api/providers');
  assert.ok(!JSON.stringify(list.body).includes('"bad"'));
});

test('the report gives the share of the primary misses the candidate fills, by post age, within its interval', async () => {
  const recent = await importFile('Fit.Recent.2026.mkv', 0);
  const old = await importFile('Fit.Old.2024.mkv', TWO_YEARS_S);
  await splitArticles(recent);
  await splitArticles(old);
  const trial = { id: 'trial', host: candidate.host, port: candidate.port, username: candidate.username };
  assert.equal((await addCandidate({ ...trial, password: candidate.password, fit_stats_per_hour: 1000 })).status, 200);
  assert.equal(
    (await addCandidate({ id: 'tight', host: tight.host, port: tight.port, fit_stats_per_hour: 6 })).status,
    200,
  );
  const garbled = { id: 'nonsense', host: nonsense.host, port: nonsense.port, fit_stats_per_hour: 1000 };
  assert.equal((await addCandidate(garbled)).status, 200);

  // One pass: all 40 articles asked of the primary, each of its 20 misses asked of the candidate.
  const r = await reportWhen((x) => {
    const t = fitOf(x, 'trial');
    const n = fitOf(x, 'nonsense');
    return t?.all.misses_filled.n === 20 && n?.errors >= 20;
  });
  const fit = fitOf(r, 'trial');
  for (const band of ['0-30d', '1-3y'] as const) {
    const b = fit.bands.find((x) => x.band === band)!;
    assert.equal(b.misses_filled.n, 10, `${band}: ${JSON.stringify(b)}`);
    assert.equal(b.misses_filled.share, 0.5, band);
    const [low, high] = b.misses_filled.interval!;
    assert.ok(low < 0.5 && 0.5 < high, `${band}: 0.5 within [${low}, ${high}]`);
  }
  for (const band of ['1-12m', '3y+'] as const)
    assert.equal(fit.bands.find((x) => x.band === band)!.misses_filled.n, 0, band);
  assert.equal(fit.errors, 0);
  // The comparison sample: the candidate is asked of it whatever the primary answered.
  const cmp = fit.all;
  assert.equal(cmp.current.n, cmp.candidate.n);
  assert.ok(fit.candidate_stats >= 20 && fit.candidate_stats <= 40, String(fit.candidate_stats));

  // Nonsense is reported, with the answer, and counted in no share.
  const garbage = fitOf(r, 'nonsense');
  assert.ok(garbage.errors >= 20 && garbage.errors === nonsenseStats, `${garbage.errors} of ${nonsenseStats}`);
  assert.match(garbage.last_error ?? '', /999/);
  assert.equal(garbage.all.misses_filled.n, 0);
  assert.equal(garbage.all.candidate.n, 0);

  const metrics = await (await fetch(`${srv.baseUrl}/metrics`)).text();
  assert.match(metrics, /spool_provider_fit_share\{candidate="trial",age="1-3y",measure="misses_filled"\} 0\.5\n/);
  assert.match(metrics, /spool_provider_fit_sampled\{candidate="trial",age="0-30d",measure="misses_filled"\} 10\n/);
  assert.match(metrics, new RegExp(`spool_provider_fit_errors\\{candidate="nonsense"\\} ${garbage.errors}\\n`));
});

test('the cost view: a monthly price over the bytes fetched from the primary', async () => {
  const put = await api(srv.baseUrl, '/api/providers/primary', { method: 'PUT', json: { price_per_month: 10 } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const res = await api<CostViewResponse>(srv.baseUrl, '/api/providers/cost');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const primaryCost = res.body.data!.providers.find((p) => p.provider === 'primary')!;
  assert.ok(primaryCost.bytes > 0, 'the imports fetched from the primary');
  assert.equal(primaryCost.pricing, 'month');
  assert.equal(primaryCost.cost, 10);
  assert.ok(Math.abs(primaryCost.cost_per_gb! - 10 / (primaryCost.bytes / 1e9)) < 1e-9);
  assert.equal(res.body.data!.total.cost, 10);
  const refused = await api(srv.baseUrl, '/api/providers/primary', { method: 'PUT', json: { price_per_month: -3 } });
  assert.equal(refused.status, 400);
  assert.match(JSON.stringify(refused.body.error), /A price cannot be negative/);
});

test('a candidate gets no more STATs than its budget, and none of the reads', async () => {
  const started = Date.now();
  const r = await reportWhen(
    (x) => fitOf(x, 'tight')?.candidate_stats === tight.stats.commands.STAT && (tight.stats.commands.STAT ?? 0) >= 1,
  );
  const hours = (Date.now() - started) / 3_600_000 + 0.1;
  const sent = tight.stats.commands.STAT ?? 0;
  assert.ok(sent <= Math.floor(6 * (hours + 1)), `${sent} STATs in ${hours} h on a budget of 6 an hour`);
  assert.equal(fitOf(r, 'tight').candidate_stats, sent);
  assert.equal(tight.stats.commands.BODY ?? 0, 0, 'no read reached a candidate');
});
