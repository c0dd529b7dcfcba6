/**
 * A repair a crash cut short (docs/health.md "Continuity"): the real Spool process asks the fake Radarr to replace a
 * broken film; the arr marks the grab failed but the answer never comes back, and Spool is killed with SIGKILL in
 * that call. Restarted on the same data, the repair is still due in the store, and taking it up again sees the
 * grab already failed: the arr journal shows one `history/failed` request, not two, and the file stays kept.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startChildServer, type ChildServer } from '../../support/child-server.js';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { film } from '../../support/media/film.js';
import { api, upload, waitForItem } from '../import/support.js';
import { waitUntil } from '../../support/wait.js';

let inn: InnServer;
let radarr: FakeArr;
let dataDir: string;
const children: ChildServer[] = [];

before(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  dataDir = mkdtempSync(join(tmpdir(), 'spool-repair-restart-'));
});
after(async () => {
  for (const c of children) await c.kill();
  await radarr?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ChildServer> {
  const srv = await startChildServer({
    dataDir,
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn)],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
      sabnzbd: { enabled: true },
      health: {
        enabled: true,
        auto_repair_enabled: true,
        check_interval_seconds: 86_400,
        check_all_segments: true,
        repair_delay_minutes: 0,
      },
      arrs: {
        enabled: true,
        radarr_instances: [{ name: 'Movies', type: 'radarr', url: radarr.url, api_key: radarr.apiKey }],
      },
    },
  });
  children.push(srv);
  return srv;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  return waitUntil(what, probe);
}

test('killed in the middle of asking the arr: after the restart the repair goes on, and the arr is asked once', async () => {
  let srv = await start();
  const bytes = film(60_000, 'Crash.Film.2022.mkv');
  const posted = await inn.postFile('Crash.Film.2022.mkv', bytes, { articleSize: 20_000 });
  const up = await upload(srv.baseUrl, 'Crash.Film.2022.nzb', posted.nzbXml, { category: 'movies' });
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const path = `${item.target_path}/Crash.Film.2022.mkv`;
  // the nzo_id the SABnzbd API gives this download: the arr's download id
  const admin = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'admin', password: 'correct horse' },
  });
  const key = admin.body.data!.user.api_key;
  const history = (await (await fetch(`${srv.baseUrl}/sabnzbd/api?mode=history&output=json&apikey=${key}`)).json()) as {
    history?: { slots: { nzo_id: string; name: string }[] };
  };
  const nzo = history.history?.slots.find((s) => s.name.startsWith('Crash.Film'))?.nzo_id;
  assert.ok(nzo, JSON.stringify(history));
  const movie = radarr.addMovie({ title: 'Crash Film' });
  const file = radarr.addMovieFile(movie.id, {
    path: `/movies/Crash Film/Crash.Film.2022.mkv`,
    sceneName: 'Crash.Film.2022',
  });
  const grabbed = radarr.addGrab({ downloadId: nzo, movieId: movie.id, sourceTitle: 'Crash.Film.2022' });
  radarr.addImport({
    downloadId: nzo,
    movieId: movie.id,
    fileId: file.id,
    droppedPath: `/downloads${path}`,
    importedPath: file.path,
  });
  // The arr will act on the blocklist, but its answer never comes back: Spool is in that call when it dies.
  radarr.fail({ method: 'POST', path: /^history\/failed\//, status: 'done-then-hang', times: 1 });
  cancelArticles(inn, [posted.messageIds[0]!]);
  const rec = await until('the record', async () => {
    const r = await api<{ id: number }>(srv.baseUrl, `/api/health/${encodeURIComponent(path)}`);
    return r.body.data ?? undefined;
  });
  await api(srv.baseUrl, '/api/health/check', {
    method: 'POST',
    json: { file_path: path, source_nzb_path: '', priority: true },
  });
  await until('the arr asked to blocklist', async () => (radarr.lib.blocklist.length > 0 ? true : undefined));
  await srv.kill();

  srv = await start();
  // The repair is still due (kept before the arr was asked); "repair now" takes it up without waiting its turn.
  const again = await api<{ status: string }>(srv.baseUrl, `/api/health/${rec.id}/repair`, {
    method: 'POST',
    json: {},
  });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  await until('the repair kept', async () => {
    const r = await api<{ status: string }>(srv.baseUrl, `/api/health/${encodeURIComponent(path)}`);
    return r.body.data?.status === 'repair_triggered' ? true : undefined;
  });
  assert.deepEqual(
    radarr.callLines().filter((c) => c.startsWith('POST history/failed')),
    [`POST history/failed/${grabbed.id}`],
    'one request, not two',
  );
  assert.equal(radarr.lib.blocklist.length, 1);
  assert.ok(radarr.lib.movieFiles.has(file.id), 'the file record is kept while the replacement comes');
  assert.deepEqual(radarr.unexpected, []);
});
