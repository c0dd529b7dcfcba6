import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PROMTOOL, startPrometheus, type PrometheusServer } from '../../support/prometheus.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { adminApiKey, api, sha256, startImportServer, type QueueItem, type TestServer } from '../import/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// A real Prometheus (Debian's package) scrapes the real Spool's GET /metrics with an API key while an NZB posted
// to a real INN is imported and read over WebDAV; it must see every family docs/metrics.md lists. A wrong key is
// a 401 and a target that is down. The shipped alert rules pass promtool and load into that Prometheus.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RULES = join(ROOT, 'deploy/prometheus/spool-alerts.yml');
const NAME = 'Hidden.Title.2024.mkv';
const MIB = 1024 * 1024;

const env = {} as { inn: InnServer; srv: TestServer };
let key = '';
let prom: PrometheusServer | undefined;
const data = film(12 * MIB + 99, NAME);

async function importAndRead(): Promise<void> {
  const posted = await env.inn.postFile(NAME, data);
  const form = new FormData();
  form.append('file', new Blob([posted.nzbXml]), 'Hidden.Title.2024.nzb');
  const up = await api<QueueItem>(env.srv.baseUrl, '/api/queue/upload', {
    method: 'POST',
    body: form,
    headers: { 'x-api-key': key },
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitUntil(`queue item ${up.body.data!.id} to finish`, async () => {
    const got = (
      await api<QueueItem>(env.srv.baseUrl, `/api/queue/${up.body.data!.id}`, { headers: { 'x-api-key': key } })
    ).body.data;
    return got && ['completed', 'failed'].includes(got.status) ? got : undefined;
  });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const url = `${env.srv.baseUrl}/webdav${item!.target_path}/${NAME}`;
  const whole = await fetch(url, { headers: { 'x-api-key': key } });
  assert.equal(sha256(Buffer.from(await whole.arrayBuffer())), sha256(data));
  // A seek: a range from 2 MiB on, read to its end (over 8 MiB).
  const seek = await fetch(url, { headers: { 'x-api-key': key, range: `bytes=${2 * MIB}-` } });
  assert.equal(seek.status, 206);
  assert.equal((await seek.arrayBuffer()).byteLength, data.length - 2 * MIB);
}

before(async () => {
  env.inn = await ensureInn();
  env.srv = await startImportServer(env.inn, { auth: { login_required: true } });
  key = await adminApiKey(env.srv);
  await importAndRead();
  const target = `127.0.0.1:${env.srv.port}`;
  prom = await startPrometheus(
    [
      { job_name: 'spool', target, bearer: key },
      { job_name: 'spool-wrong-key', target, bearer: 'not-a-key' },
    ],
    [RULES],
  );
});
after(async () => {
  await prom?.stop();
  await env.srv?.stop();
});

type Vector = { metric: Record<string, string>; value: [number, string] }[];

/** Asks Prometheus `query` until it answers a non-empty vector (bounded: 30 s). */
async function seen(query: string): Promise<Vector> {
  for (let i = 0; i < 150; i++) {
    const r = await prom!.get<{ result: Vector }>(`query?query=${encodeURIComponent(query)}`);
    if (r.result.length > 0) return r.result;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`Prometheus never saw ${query}`);
}

const FAMILIES = [
  'spool_stream_first_byte_seconds_bucket',
  'spool_stream_seek_read_seconds_bucket',
  'spool_provider_article_seconds_bucket',
  'spool_stream_bytes_served_total',
  'spool_streams_total',
  'spool_stream_stalls_total',
  'spool_provider_articles_total',
  'spool_provider_bytes_fetched_total',
  'spool_imports_total',
  'spool_health_checks_total',
  'spool_repairs_total',
  'spool_streams_open',
  'spool_provider_connections',
  'spool_provider_up',
  'spool_provider_state',
  'spool_pool_waiting_requests',
  'spool_queue_items',
  'spool_health_due_files',
  'spool_node_leader',
  'spool_probe_cache_bytes',
  'spool_probe_cache_articles',
  'spool_probe_cache_events_total',
];

test('Prometheus scrapes every family, with the reads and the import counted', async () => {
  for (const family of FAMILIES) await seen(`${family}{job="spool"}`);
  const one = async (q: string) => Number((await seen(q))[0]!.value[1]);
  assert.ok((await one('spool_imports_total{outcome="completed"}')) >= 1);
  assert.ok((await one('sum(spool_stream_bytes_served_total{front="webdav"})')) >= 2 * data.length - 2 * MIB);
  assert.ok((await one('spool_stream_seek_read_seconds_count{front="webdav"}')) >= 1);
  assert.ok((await one('sum(spool_provider_articles_total{outcome="ok",command="body"})')) > 0);
  assert.ok((await one('sum(spool_provider_bytes_fetched_total)')) >= data.length);
  assert.equal(await one('spool_provider_up{job="spool"}'), 1);
});

test('a wrong key is a 401 and a target that is down; the right key, any of its three forms, a 200', async () => {
  const targets = await prom!.get<{ activeTargets: { labels: { job: string }; health: string; lastError: string }[] }>(
    'targets',
  );
  await waitUntil(
    'Prometheus to scrape every target once',
    async () => {
      if (!targets.activeTargets.some((t) => t.health === 'unknown')) return true;
      Object.assign(targets, await prom!.get('targets'));
      return false;
    },
    { everyMs: 200 },
  );
  const health = Object.fromEntries(targets.activeTargets.map((t) => [t.labels.job, t]));
  assert.equal(health['spool']?.health, 'up', health['spool']?.lastError);
  assert.equal(health['spool-wrong-key']?.health, 'down');
  assert.match(health['spool-wrong-key']!.lastError, /401/);
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${env.srv.baseUrl}${path}`, { headers }).then(async (r) => ({
      status: r.status,
      type: r.headers.get('content-type'),
      text: await r.text(),
    }));
  assert.equal((await get('/metrics')).status, 401);
  assert.equal((await get('/metrics', { 'x-api-key': 'wrong' })).status, 401);
  assert.equal((await get('/metrics', { authorization: 'Bearer wrong' })).status, 401);
  const ok = await get('/metrics', { 'x-api-key': key });
  assert.equal(ok.status, 200);
  assert.equal(ok.type, 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal((await get(`/metrics?apikey=${key}`)).status, 200);
  assert.ok(!ok.text.includes('Hidden.Title'), 'no label carries a file path');
});

test('the shipped alert rules pass promtool, their unit tests pass, and Prometheus loaded them', async () => {
  execFileSync(PROMTOOL, ['check', 'rules', RULES], { stdio: 'pipe' });
  execFileSync(PROMTOOL, ['test', 'rules', join(ROOT, 'deploy/prometheus/spool-alerts.test.yml')], { stdio: 'pipe' });
  const rules = await prom!.get<{ groups: { name: string; rules: { name: string; health: string }[] }[] }>('rules');
  const spool = rules.groups.find((g) => g.name === 'spool');
  assert.ok(spool && spool.rules.length >= 5);
  assert.ok(spool.rules.some((r) => r.name === 'SpoolProviderDown'));
  // Each rule's health is "unknown" until Prometheus first evaluated it: wait for that, then none may be in error.
  const evaluated = await waitUntil(
    'every spool rule evaluated once',
    async () => {
      const group = (await prom!.get<typeof rules>('rules')).groups.find((g) => g.name === 'spool')!.rules;
      return group.every((r) => r.health !== 'unknown') ? group : undefined;
    },
    { everyMs: 200 },
  );
  for (const r of evaluated) assert.notEqual(r.health, 'err', r.name);
});

test('every query of the shipped Grafana dashboard parses in Prometheus and names a family Spool exposes', async () => {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'deploy/grafana/spool-dashboard.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  assert.ok(exprs.length >= 15);
  const text = await fetch(`${env.srv.baseUrl}/metrics`, { headers: { 'x-api-key': key } }).then((r) => r.text());
  for (const expr of exprs) {
    const query = expr.replaceAll('$job', 'spool').replaceAll('$__rate_interval', '1m');
    await prom!.get(`query?query=${encodeURIComponent(query)}`); // throws on a parse error
    for (const [name] of expr.matchAll(/spool_[a-z_]+/g))
      assert.ok(text.includes(`\n${name}`), `${name} (in ${expr}) is not exposed`);
  }
});

test('promtool finds nothing to lint in a scrape', async () => {
  const res = await fetch(`${env.srv.baseUrl}/metrics`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200);
  const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: await res.text(), encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
});

test('metrics.open serves /metrics without a key', async () => {
  const patch = await api(env.srv.baseUrl, '/api/config/metrics', {
    method: 'PATCH',
    json: { section: 'metrics', config: { open: true } },
    headers: { 'x-api-key': key },
  });
  assert.equal(patch.status, 200, JSON.stringify(patch.body));
  assert.equal((await fetch(`${env.srv.baseUrl}/metrics`)).status, 200);
});
