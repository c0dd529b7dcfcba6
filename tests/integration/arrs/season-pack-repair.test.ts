/**
 * A season pack repaired as Sonarr really behaves (FailedDownloadService.MarkAsFailed, modelled by the fake Sonarr
 * in tests/support/fake-arr/routes.ts): marking one grab failed fails every grab of the same download id, blocklists
 * the pack once and searches the whole season. Spool, asked to repair one broken episode, lowers that episode's
 * revision only (docs/arrs.md "Continuity"): only it passes the grab gate, its replacement is imported over it, the
 * old episode is retired, and the other episodes keep their records in Sonarr and their files in Spool.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fakeArrInstance } from '../../support/fake-arr/fixtures.js';
import { defaultQuality, startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { checkAndWait, record } from '../health/support.js';
import { api, innProvider, startImportServer, upload, waitForItem, type TestServer } from '../import/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

const ROOT = '/data/spool';
let inn: InnServer;
let sonarr: FakeArr;
let srv: TestServer;

before(async () => {
  inn = await ensureInn();
  sonarr = await startFakeArr({ type: 'sonarr', autoRedownloadFailed: true });
  srv = await startImportServer(inn, {
    providers: [innProvider(inn)],
    health: { enabled: true, auto_repair_enabled: true, check_interval_seconds: 86_400, repair_delay_minutes: 0 },
    arrs: { enabled: true, sonarr_instances: [fakeArrInstance(sonarr, { root_folder: ROOT })] },
  });
});
after(async () => {
  await srv?.stop();
  await sonarr?.close();
});

test('one broken episode of a season pack: Sonarr fails the whole grab and searches the season; only that episode is replaced', async () => {
  const pack = 'Show.S01.1080p.WEB-GRP';
  const posted = [];
  for (let e = 1; e <= 3; e++)
    posted.push(await inn.postFile(`Show.S01E0${e}.1080p.WEB-GRP.mkv`, film(60_000), { articleSize: 20_000 }));
  const nzb = buildNzb(posted, inn.group, 'Spool Test <poster@spool.test>');
  const up = await upload(srv.baseUrl, `${pack}.nzb`, nzb, { category: 'tv' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const app = srv.app();
  const nzo = app.sabnzbd.nzo.of(item.id);
  const paths = posted.map((p) => `${item.target_path}/${p.name}`);

  // Sonarr grabbed the pack once (one "grabbed" record per episode, one download id) and imported each episode.
  const show = sonarr.addSeries({ title: 'Show', path: '/tv/Show' });
  const episodes = [1, 2, 3].map((n) => sonarr.addEpisode(show.id, { seasonNumber: 1, episodeNumber: n }));
  const files = episodes.map((e, i) =>
    sonarr.addEpisodeFile(show.id, { path: `${ROOT}${paths[i]}`, sceneName: pack, episodeIds: [e.id] }),
  );
  for (const e of episodes) sonarr.addGrab({ downloadId: nzo, seriesId: show.id, episodeId: e.id, sourceTitle: pack });

  cancelArticles(inn, [posted[1]!.messageIds[0]!]);
  assert.match((await checkAndWait(srv.baseUrl, paths[1]!)).status, /^(corrupted|repair_triggered)$/);
  await waitFor(async () => (await record(srv.baseUrl, paths[1]!)).status === 'repair_triggered');

  const lines = sonarr.callLines();
  // Continuity (docs/arrs.md): nothing is deleted; only the broken episode's record gets its revision lowered.
  assert.deepEqual(
    lines.filter((l) => l.startsWith('DELETE')),
    [],
  );
  const edits = sonarr.calls.filter((c) => c.method === 'PUT').flatMap((c) => c.body as { id: number }[]);
  assert.deepEqual(
    edits.map((e) => e.id),
    [files[1]!.id],
    'only the broken episode',
  );
  assert.deepEqual(
    [...sonarr.lib.episodeFiles.keys()],
    files.map((f) => f.id),
    'every episode keeps its file until replaced',
  );
  assert.equal(sonarr.lib.episodeFiles.get(files[1]!.id)!.quality!.revision.version, 0);
  assert.equal(sonarr.lib.episodeFiles.get(files[0]!.id)!.quality!.revision.version, 1);
  // As Sonarr: the pack is blocklisted once, with all its episodes, and the whole season is searched.
  assert.equal(sonarr.lib.blocklist.length, 1);
  assert.deepEqual(sonarr.lib.blocklist[0]!.episodeIds?.sort(), episodes.map((e) => e.id).sort());
  const failed = [...sonarr.lib.history.values()].filter((h) => h.eventType === 'downloadFailed');
  assert.equal(failed.length, 3, 'every grab of the download id is failed');
  assert.deepEqual(
    sonarr.lib.commands.filter((c) => c.source === 'redownload').map((c) => c.body),
    [{ name: 'SeasonSearch', seriesId: show.id, seasonNumber: 1 }],
  );
  assert.ok(!lines.includes('POST command'), 'Spool does not search again: the arr does');
  // Nothing else changes in Spool: the good episodes are still there and healthy-or-unchecked, not repaired.
  for (const p of [paths[0]!, paths[2]!]) {
    const r = await record(srv.baseUrl, p);
    assert.ok(['pending', 'healthy'].includes(r.status), `${p}: ${r.status}`);
    const listed = await api(srv.baseUrl, `/api/files/info?path=${encodeURIComponent(p)}`);
    assert.equal(listed.status, 200, `${p} is still in Spool's tree`);
  }

  // The season search: only the broken episode passes the grab gate (revision 0); the intact ones are not upgrades.
  const sameRelease = defaultQuality();
  assert.deepEqual(
    files.map((f) => sonarr.wouldGrab(f.id, sameRelease)),
    [false, true, false],
  );
  // Sonarr grabs that episode again through Spool and imports it over the broken one.
  const fresh = await inn.postFile('Show.S01E02.1080p.WEB-NEW.mkv', film(60_000), { articleSize: 20_000 });
  const again = await upload(srv.baseUrl, 'Show.S01E02.1080p.WEB-NEW.nzb', fresh.nzbXml, { category: 'tv' });
  const newItem = await waitForItem(srv.baseUrl, again.body.data!.id);
  assert.equal(newItem.status, 'completed', newItem.error_message ?? '');
  const newPath = `${newItem.target_path}/${fresh.name}`;
  await sonarr.importUpgrade({
    oldFileId: files[1]!.id,
    downloadId: app.sabnzbd.nzo.of(newItem.id),
    path: `${ROOT}${newPath}`,
    droppedPath: `${ROOT}${newPath}`,
    sourceTitle: 'Show.S01E02.1080p.WEB-NEW',
  });
  const broken = await record(srv.baseUrl, paths[1]!);
  await api(srv.baseUrl, `/api/health/${broken.id}/repair`, { method: 'POST', json: {} });
  await waitFor(
    async () => (await api(srv.baseUrl, `/api/files/info?path=${encodeURIComponent(paths[1]!)}`)).status === 404,
  );
  // Only that episode was replaced: the pack's other two stay in Spool and in Sonarr.
  for (const p of [paths[0]!, paths[2]!])
    assert.equal((await api(srv.baseUrl, `/api/files/info?path=${encodeURIComponent(p)}`)).status, 200, p);
  assert.equal((await api(srv.baseUrl, `/api/files/info?path=${encodeURIComponent(newPath)}`)).status, 200);
  assert.deepEqual(
    [...sonarr.lib.episodeFiles.values()].map((f) => f.path).sort(),
    [`${ROOT}${paths[0]}`, `${ROOT}${paths[2]}`, `${ROOT}${newPath}`].sort(),
  );
  assert.deepEqual(sonarr.unexpected, []);
});

async function waitFor(cond: () => Promise<boolean>): Promise<void> {
  await waitUntil('the condition', cond, { everyMs: 50 });
}
