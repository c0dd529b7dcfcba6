import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { fakeArrInstance } from '../../support/fake-arr/fixtures.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api, innProvider, startImportServer, type TestServer } from '../import/support.js';
import { checkAndWait, importPosted, record, Relay } from './support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// Repair through the real ArrRepairService against fake Radarr and Sonarr servers, with INN as the provider behind
// a relay that can be stopped (the server "goes away"). Time is a ManualClock: back-offs pass on demand.
const ROOT = '/data/spool';
let inn: InnServer;
let relay: Relay;
let radarr: FakeArr;
let sonarr: FakeArr;
let srv: TestServer;
const clock = new ManualClock();
const tick = () => clock.advance(0);
// The importer runs on the same clock: time follows real time in small steps, and jumps when a test says so.
let follower: NodeJS.Timeout | undefined;
let following = false;

before(async () => {
  follower = setInterval(() => {
    if (following) return;
    following = true;
    void clock.advance(25).finally(() => (following = false));
  }, 25);
  inn = await ensureInn();
  relay = new Relay(inn);
  await relay.start();
  radarr = await startFakeArr({ type: 'radarr' });
  sonarr = await startFakeArr({ type: 'sonarr' });
  const instance = (a: FakeArr) => fakeArrInstance(a, { root_folder: ROOT });
  srv = await startImportServer(
    inn,
    {
      providers: [innProvider(inn, { port: relay.port })],
      // Repairs at once after the verdict: these tests follow single files, not waves.
      health: {
        enabled: true,
        auto_repair_enabled: true,
        check_interval_seconds: 86_400,
        max_retries: 1,
        repair_delay_minutes: 0,
      },
      arrs: { enabled: true, radarr_instances: [instance(radarr)], sonarr_instances: [instance(sonarr)] },
    },
    { clock },
  );
});
after(async () => {
  clearInterval(follower);
  await srv?.stop();
  await relay?.stop();
  await radarr?.close();
  await sonarr?.close();
});

/** A movie in the fake Radarr whose file is the imported one, as the instance sees the mount at ROOT. */
function own(path: string, title: string) {
  const movie = radarr.addMovie({ title });
  return { movie, file: radarr.addMovieFile(movie.id, { path: `${ROOT}${path}` }) };
}

test('a corrupted file is replaced through Radarr with the exact calls; a good file is never touched', async () => {
  const good = await importPosted(srv.baseUrl, inn, 'Good.Film.2020.mkv', film(200_000), 20_000);
  const bad = await importPosted(srv.baseUrl, inn, 'Bad.Film.2021.mkv', film(200_000), 20_000);
  const g = own(good.path, 'Good Film');
  const b = own(bad.path, 'Bad Film');
  assert.equal((await checkAndWait(srv.baseUrl, good.path, tick)).status, 'healthy');
  cancelArticles(inn, [bad.ids[0]!]);
  // The verdict is corrupted; the repair follows it at once, so the record may already say repair_triggered.
  assert.match((await checkAndWait(srv.baseUrl, bad.path, tick)).status, /^(corrupted|repair_triggered)$/);
  await waitFor(async () => (await record(srv.baseUrl, bad.path)).status === 'repair_triggered');
  const r = await record(srv.baseUrl, bad.path);
  assert.equal(r.repair_retry_count, 1);
  const lines = radarr.callLines();
  assert.ok(lines.includes(`DELETE moviefile/${b.file.id}`), lines.join(', '));
  assert.ok(!lines.some((l) => l.includes(`moviefile/${g.file.id}`)), 'the good file is not touched');
  assert.deepEqual(radarr.calls.at(-1)!.body, { name: 'MoviesSearch', movieIds: [b.movie.id] });
  assert.deepEqual([...radarr.lib.movieFiles.keys()], [g.file.id]);
  assert.deepEqual(radarr.unexpected, []);
  assert.equal((await record(srv.baseUrl, good.path)).status, 'healthy');
});

test('a file the arr renamed out of sight is repaired through its download id; the other movie is never touched', async () => {
  const f = await importPosted(srv.baseUrl, inn, 'Renamed.Film.2025.mkv', film(200_000), 20_000);
  const keep = await importPosted(srv.baseUrl, inn, 'Kept.Film.2025.mkv', film(100_000), 20_000);
  const app = srv.app();
  // The download id the arr knows the grab by: the nzo_id of the queue item that wrote the file.
  const nzoOf = (path: string) => app.sabnzbd.nzo.of(app.streaming.vfs.stat(path)!.queueItemId!);
  const job = (path: string) => path.split('/').slice(-2).join('/');
  const arrOwns = (path: string, title: string, libraryPath: string) => {
    const movie = radarr.addMovie({ title });
    // Imported by copy and renamed since: the record's path is not under the mount and not a link to it.
    const file = radarr.addMovieFile(movie.id, { path: libraryPath });
    const grab = radarr.addGrab({ downloadId: nzoOf(path), movieId: movie.id, sourceTitle: title });
    radarr.addImport({
      downloadId: nzoOf(path),
      movieId: movie.id,
      fileId: file.id,
      droppedPath: `/data/downloads/movies/${job(path)}`,
      importedPath: libraryPath,
    });
    radarr.renameFile(file.id, `${libraryPath.replace(/\.mkv$/, '')} (Remux).mkv`);
    return { movie, file, grab };
  };
  const o = arrOwns(f.path, 'Renamed Film', '/films/Renamed Film (2025)/Renamed Film (2025).mkv');
  const k = arrOwns(keep.path, 'Kept Film', '/films/Kept Film (2025)/Kept Film (2025).mkv');
  const from = radarr.calls.length;
  cancelArticles(inn, [f.ids[0]!]);
  assert.match((await checkAndWait(srv.baseUrl, f.path, tick)).status, /^(corrupted|repair_triggered)$/);
  await waitFor(async () => (await record(srv.baseUrl, f.path)).status === 'repair_triggered');
  const calls = radarr.calls.slice(from);
  assert.equal(calls[0]!.query.downloadId, nzoOf(f.path), "the health record's file led to its download id");
  assert.deepEqual(radarr.callLines().slice(from), [
    'GET history',
    'GET moviefile',
    'GET history',
    'GET moviefile',
    'PUT moviefile/bulk',
    `POST history/failed/${o.grab.id}`,
    'GET config/downloadclient',
    'POST command',
  ]);
  // the broken file's record stays (revision lowered) until its replacement comes (docs/arrs.md "Continuity")
  assert.equal(radarr.lib.movieFiles.get(o.file.id)!.quality!.revision.version, 0);
  assert.ok(radarr.lib.movieFiles.has(k.file.id), 'the other movie keeps its file');
  assert.deepEqual(radarr.lib.blocklist.at(-1)?.downloadId, nzoOf(f.path));
  assert.deepEqual(radarr.unexpected, []);
});

test('409 and 5xx from the arr are retried after a back-off; a 404 on the delete is a failure', async () => {
  const f = await importPosted(srv.baseUrl, inn, 'Busy.Film.2022.mkv', film(100_000), 20_000);
  const o = own(f.path, 'Busy Film');
  radarr.fail({ method: 'DELETE', path: /^moviefile\//, status: 409, times: 1 });
  radarr.fail({ method: 'DELETE', path: /^moviefile\//, status: 503, times: 1 });
  cancelArticles(inn, [f.ids[0]!]);
  assert.equal((await checkAndWait(srv.baseUrl, f.path, tick)).status, 'corrupted');
  await waitFor(async () => /will retry/.test((await record(srv.baseUrl, f.path)).last_error ?? ''));
  const first = await record(srv.baseUrl, f.path);
  assert.equal(first.status, 'corrupted');
  assert.equal(first.repair_retry_count, 1);
  await clock.advance(15 * 60_000 + 1); // the 503 answers the second try
  await waitFor(async () => (await record(srv.baseUrl, f.path)).repair_retry_count === 2);
  assert.equal((await record(srv.baseUrl, f.path)).status, 'corrupted');
  await clock.advance(30 * 60_000 + 1);
  await waitFor(async () => (await record(srv.baseUrl, f.path)).status === 'repair_triggered');
  assert.ok(!radarr.lib.movieFiles.has(o.file.id));

  const gone = await importPosted(srv.baseUrl, inn, 'Gone.Film.2023.mkv', film(100_000), 20_000);
  own(gone.path, 'Gone Film');
  radarr.fail({ method: 'DELETE', path: /^moviefile\//, status: 404, times: 1 });
  cancelArticles(inn, [gone.ids[0]!]);
  assert.equal((await checkAndWait(srv.baseUrl, gone.path, tick)).status, 'corrupted');
  await waitFor(async () => /Repair failed/.test((await record(srv.baseUrl, gone.path)).last_error ?? ''));
  assert.equal((await record(srv.baseUrl, gone.path)).status, 'corrupted');
});

test('repair of a file no arr manages answers NOT_FOUND', async () => {
  const f = await importPosted(srv.baseUrl, inn, 'Orphan.Film.2024.mkv', film(100_000), 20_000);
  const rec = await record(srv.baseUrl, f.path);
  const res = await api(srv.baseUrl, `/api/health/${rec.id}/repair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reset_repair_retry_count: false }),
  });
  assert.equal(res.status, 404);
  assert.equal((res.body as { error?: { code: string } }).error?.code, 'NOT_FOUND');
});

test('the server stopped for longer than a check: no verdict, no repair; back up: a verdict', async () => {
  const f = await importPosted(srv.baseUrl, inn, 'Steady.Film.2019.mkv', film(100_000), 20_000);
  own(f.path, 'Steady Film');
  const callsBefore = radarr.calls.length;
  await relay.stop();
  try {
    const r = await checkAndWait(srv.baseUrl, f.path, tick);
    assert.equal(r.status, 'pending');
    assert.equal(r.retry_count, 1);
    assert.match(r.last_error ?? '', /No verdict/);
    assert.deepEqual(r.missing_ranges, []);
    await clock.advance(60_000 + 1); // the retry, still down: gives up until the normal schedule
    await waitFor(async () => /after 1 retries/.test((await record(srv.baseUrl, f.path)).last_error ?? ''));
    const after = await record(srv.baseUrl, f.path);
    assert.equal(after.status, 'pending');
    // Earlier tests' kept files are looked after on the repair back-off (GETs); this file made the arr act on nothing.
    const acted = radarr.calls.slice(callsBefore).filter((c) => c.method !== 'GET');
    assert.deepEqual(acted, [], 'no arr was asked to do anything');
  } finally {
    await relay.start();
  }
  // The pool may keep the provider aside for its cool-down; a later check gets the verdict.
  let verdict = '';
  await waitUntil(
    () => `a healthy verdict once INN is back (last: ${verdict})`,
    async () => (verdict = (await checkAndWait(srv.baseUrl, f.path, tick)).status) === 'healthy',
    { everyMs: 2000 },
  );
  assert.equal(verdict, 'healthy');
});

async function waitFor(cond: () => Promise<boolean>): Promise<void> {
  await waitUntil('the condition', async () => (await cond()) || (await tick(), false), { everyMs: 50 });
}
