import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cancelArticles } from '../../support/inn/cancel.js';
import { damageArticles } from '../../support/inn/damage.js';
import { api, importServerOverInn } from '../import/support.js';
import { checkAndWait, importPosted, record } from './support.js';
import { film } from '../../support/media/film.js';

// Files posted to a real INN and imported through the real API; then the server loses articles the way providers
// do (ctlinnd cancel: STAT and BODY answer 430) or their stored bodies rot on disk (STAT still 223), and the real
// health checker, on the real pool's health lane, has to tell which.

// Scheduled checks a day away: every check here is one the test asks for. Every article is STATed, so the
// one cancelled article is found whatever a sample would have drawn (sampling: appliance/health tests).
const env = importServerOverInn({
  health: { enabled: true, check_interval_seconds: 86_400, check_all_segments: true },
});

test('every imported file gets a pending record; a check of an intact file finds it healthy', async () => {
  const { path } = await importPosted(env.srv.baseUrl, env.inn, 'Intact.Movie.mkv', film(400_000), 20_000);
  const fresh = await record(env.srv.baseUrl, path);
  assert.equal(fresh.status, 'pending');
  assert.equal(fresh.source_nzb_path, 'Intact.Movie.mkv.nzb');
  const r = await checkAndWait(env.srv.baseUrl, path);
  assert.equal(r.status, 'healthy');
  assert.equal(r.last_error, null);
  assert.deepEqual(r.missing_ranges, []);
});

test('an article cancelled on the server: partial, with the byte range shown; the first article: corrupted', async () => {
  const data = film(150 * 10_000);
  const holes = await importPosted(env.srv.baseUrl, env.inn, 'Holes.Movie.mkv', data, 10_000);
  cancelArticles(env.inn, [holes.ids[70]!]);
  const r = await checkAndWait(env.srv.baseUrl, holes.path);
  assert.equal(r.status, 'partial', r.last_error ?? '');
  assert.deepEqual(r.missing_ranges, [
    { message_id: holes.ids[70], start_offset: 700_000, end_offset: 709_999, damaged: false },
  ]);
  const info = await api<{ available_segments: number; segments: { message_id: string; available: boolean }[] }>(
    env.srv.baseUrl,
    `/api/files/info?path=${encodeURIComponent(holes.path)}`,
  );
  assert.equal(info.body.data!.available_segments, 149);
  assert.deepEqual(
    info.body.data!.segments.filter((s) => !s.available).map((s) => s.message_id),
    [holes.ids[70]],
  );

  const head = await importPosted(env.srv.baseUrl, env.inn, 'Headless.Movie.mkv', film(200_000), 20_000);
  cancelArticles(env.inn, [head.ids[0]!]);
  const h = await checkAndWait(env.srv.baseUrl, head.path);
  assert.equal(h.status, 'corrupted');
  assert.equal(h.missing_ranges[0]!.start_offset, 0);
  const corrupted = await api<{ file_path: string }[]>(env.srv.baseUrl, '/api/health/corrupted');
  assert.ok(corrupted.body.data!.some((x) => x.file_path === head.path));
});

test('a body damaged on the server disk (STAT still 223) is caught by the BODY spot-check', async () => {
  // Three articles: the spot-check BODYs every one of them.
  const rot = await importPosted(env.srv.baseUrl, env.inn, 'Rotten.Movie.mkv', film(3 * 30_000), 30_000);
  damageArticles(env.inn, [rot.ids[1]!]);
  const r = await checkAndWait(env.srv.baseUrl, rot.path);
  assert.equal(r.status, 'corrupted', JSON.stringify(r));
  assert.deepEqual(
    r.missing_ranges.map((m) => [m.message_id, m.damaged]),
    [[rot.ids[1], true]],
  );
  assert.match(r.last_error ?? '', /1 damaged of 3 articles/);
});

test('the list answers with filters, search, sort and meta.total; stats count by status', async () => {
  const list = await api<{ file_path: string; status: string }[]>(
    env.srv.baseUrl,
    '/api/health?sort_by=file_path&sort_order=asc&limit=2&offset=0',
  );
  assert.equal(list.status, 200);
  const total = (list.body as { meta?: { total: number } }).meta!.total;
  assert.ok(total >= 4, `total ${total}`);
  assert.equal(list.body.data!.length, 2);
  const paths = list.body.data!.map((r) => r.file_path);
  assert.deepEqual(paths, [...paths].sort());
  const search = await api<{ file_path: string }[]>(env.srv.baseUrl, '/api/health?search=rotten');
  assert.deepEqual(
    search.body.data!.map((r) => r.file_path.split('/').pop()),
    ['Rotten.Movie.mkv'],
  );
  const stats = await api<Record<string, number>>(env.srv.baseUrl, '/api/health/stats');
  assert.equal(stats.body.data!.total, total);
  assert.ok(stats.body.data!.corrupted! >= 2);
  const worker = await api<{ status: string; total_files_checked: number }>(
    env.srv.baseUrl,
    '/api/health/worker/status',
  );
  assert.equal(worker.body.data!.status, 'running');
  assert.ok(worker.body.data!.total_files_checked >= 4);
  const bad = await api(env.srv.baseUrl, '/api/health?status=broken&sort_by=size');
  assert.equal(bad.status, 400);
});
