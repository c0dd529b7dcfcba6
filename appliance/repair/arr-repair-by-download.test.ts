/**
 * Repair through the download id's import history (docs/arrs.md, "Which arr owns a file", step 1): the arr wrote
 * which file it took from Spool's job folder (`droppedPath`) and which record it made of it (`fileId`), so a file
 * the arr renamed or moved where Spool cannot follow it, or whose release name several files share (a season
 * pack), is still found, and exactly that record is deleted. A good file is never touched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, type SpoolConfig } from '../config/index.js';
import { memoryLogger } from '../logging/logger.js';
import { fakeArrInstance, fakeArrPerTest } from '../../tests/support/fake-arr/fixtures.js';
import { defaultQuality, type FakeArr } from '../../tests/support/fake-arr/server.js';
import { ArrRepairService } from './arr-repair.service.js';

const startFake = fakeArrPerTest();
const fake = (type: 'radarr' | 'sonarr') => startFake({ type });

function service(a: FakeArr) {
  const inst = fakeArrInstance(a);
  const config = {
    ...structuredClone(DEFAULTS),
    // Spool's mount and job folders as this machine sees them; the arr's library is somewhere Spool cannot read.
    mount_path: '/mnt/spool',
    arrs: {
      enabled: true,
      radarr_instances: a.type === 'radarr' ? [inst] : [],
      sonarr_instances: a.type === 'sonarr' ? [inst] : [],
    },
  } as SpoolConfig;
  return new ArrRepairService({ config: { get: () => config }, logger: memoryLogger() });
}

/** Sonarr took a season pack from Spool's job folder (as the arr sees it, under its own path mapping). */
async function seasonPack() {
  const sonarr = await fake('sonarr');
  const show = sonarr.addSeries({ title: 'Show', path: '/tv/Show' });
  const e1 = sonarr.addEpisode(show.id, { seasonNumber: 1, episodeNumber: 1 });
  const e2 = sonarr.addEpisode(show.id, { seasonNumber: 1, episodeNumber: 2 });
  const pack = 'Show.S01.1080p-GRP';
  const id = 'SABnzbd_nzo_pack';
  const files = [e1, e2].map((e, i) => {
    const name = `Show.S01E0${i + 1}.1080p-GRP.mkv`;
    const file = sonarr.addEpisodeFile(show.id, {
      path: `/tv/Show/Season 1/${name}`,
      sceneName: pack,
      size: 1000,
      episodeIds: [e.id],
    });
    sonarr.addGrab({ downloadId: id, seriesId: show.id, episodeId: e.id, sourceTitle: pack });
    sonarr.addImport({
      downloadId: id,
      seriesId: show.id,
      episodeId: e.id,
      fileId: file.id,
      droppedPath: `/data/downloads/tv/${pack}/${name}`,
      importedPath: file.path,
      sourceTitle: pack,
    });
    return { file, name };
  });
  return { sonarr, show, e1, e2, files, pack, id };
}

test('a season pack renamed in the library: the broken episode is found through its import, its sibling untouched', async () => {
  const { sonarr, e2, files, pack, id } = await seasonPack();
  // The arr renamed both files since: their paths lead nowhere Spool can see, and both carry the pack's name.
  sonarr.renameFile(files[0]!.file.id, '/tv/Show/Season 01/Show - S01E01 - Pilot.mkv');
  sonarr.renameFile(files[1]!.file.id, '/tv/Show/Season 01/Show - S01E02 - Second.mkv');
  const out = await service(sonarr).repairFile({ path: `/complete/tv/${pack}/${files[1]!.name}`, downloadId: id });
  assert.equal(out.kind, 'triggered');
  assert.equal(out.kind === 'triggered' && out.fileId, files[1]!.file.id);
  assert.deepEqual(sonarr.callLines(), [
    'GET history',
    'GET episodefile',
    `GET episode`,
    'GET history',
    'GET episodefile',
    'PUT episodefile/bulk',
    `POST history/failed/${sonarr.lib.blocklist[0]!.historyId}`,
    'GET config/downloadclient',
    'POST command',
  ]);
  assert.match(sonarr.calls[0]!.search, /eventType=1&eventType=3/);
  assert.deepEqual(sonarr.calls.find((c) => c.method === 'PUT')!.body, [
    { id: files[1]!.file.id, quality: { ...defaultQuality(), revision: { version: 0, real: 0, isRepack: false } } },
  ]);
  assert.deepEqual(sonarr.calls.at(-1)!.body, { name: 'EpisodeSearch', episodeIds: [e2.id] });
  // Both episodes keep their records: the broken one until its replacement is imported, the good one untouched.
  assert.deepEqual([...sonarr.lib.episodeFiles.keys()], [files[0]!.file.id, files[1]!.file.id]);
  assert.deepEqual(sonarr.lib.episodeFiles.get(files[0]!.file.id)!.quality, defaultQuality());
});

test('without the import records (an older arr), the same pack is not provably ours: nothing is deleted', async () => {
  const { sonarr, files, pack, id } = await seasonPack();
  for (const [k, r] of sonarr.lib.history) if (r.eventType === 'downloadFolderImported') sonarr.lib.history.delete(k);
  sonarr.renameFile(files[1]!.file.id, '/tv/Show/Season 01/Show - S01E02 - Second.mkv');
  const out = await service(sonarr).repairFile({ path: `/complete/tv/${pack}/${files[1]!.name}`, downloadId: id });
  assert.deepEqual(out, { kind: 'not_found' });
  assert.equal(sonarr.lib.episodeFiles.size, 2);
  assert.ok(sonarr.callLines().every((l) => !l.startsWith('DELETE') && !l.startsWith('POST')));
});

test('Radarr: a movie moved to another root folder is repaired through its import; a sample it never imported is not', async () => {
  const radarr = await fake('radarr');
  const film = radarr.addMovie({ title: 'Film', path: '/movies/Film (2024)' });
  const file = radarr.addMovieFile(film.id, { path: '/movies/Film (2024)/Film (2024).mkv', size: 5000 });
  const grab = radarr.addGrab({ downloadId: 'nzo_film', movieId: film.id, sourceTitle: 'Film.2024.1080p-GRP' });
  radarr.addImport({
    downloadId: 'nzo_film',
    movieId: film.id,
    fileId: file.id,
    // Windows-style, as a Radarr on Windows reports it: only the job folder and the name count.
    droppedPath: 'D:\\downloads\\movies\\Film.2024.1080p-GRP\\film.2024.mkv',
    importedPath: file.path,
  });
  radarr.renameFile(file.id, '/movies-4k/Film (2024)/Film (2024) Remux.mkv');

  // The job's sample file is broken too, but the arr never imported it: the movie must not be deleted for it.
  const sample = await service(radarr).repairFile({
    path: '/complete/movies/Film.2024.1080p-GRP/sample.mkv',
    downloadId: 'nzo_film',
  });
  assert.deepEqual(sample, { kind: 'not_found' });
  assert.ok(radarr.lib.movieFiles.has(file.id));

  const out = await service(radarr).repairFile({
    path: '/mnt/spool/complete/movies/Film.2024.1080p-GRP/film.2024.mkv',
    downloadId: 'nzo_film',
  });
  assert.deepEqual(out, {
    kind: 'triggered',
    instance: 'radarr',
    arrType: 'radarr',
    itemId: film.id,
    fileId: file.id,
    blocklisted: true,
    searched: true,
    route: 'replace',
    note: null,
    awaiting: { ...(out.kind === 'triggered' ? out.awaiting! : ({} as never)) },
  });
  assert.ok(out.kind === 'triggered' && out.awaiting?.fileId === file.id && out.awaiting.grabId === grab.id);
  assert.deepEqual(
    radarr.lib.blocklist.map((b) => b.historyId),
    [grab.id],
  );
  assert.equal(radarr.lib.movieFiles.size, 1, 'the file stays until its replacement is imported');
});

test('an upgrade since: the import names a record that is gone, the newer file is never touched', async () => {
  const radarr = await fake('radarr');
  const film = radarr.addMovie({ title: 'Film', path: '/movies/Film (2024)' });
  radarr.addGrab({ downloadId: 'nzo_old', movieId: film.id, sourceTitle: 'Film.2024.720p-OLD' });
  radarr.addImport({
    downloadId: 'nzo_old',
    movieId: film.id,
    fileId: 41, // deleted when the upgrade came in
    droppedPath: '/downloads/movies/Film.2024.720p-OLD/film.mkv',
    importedPath: '/movies/Film (2024)/Film.mkv',
  });
  const newer = radarr.addMovieFile(film.id, {
    path: '/movies/Film (2024)/Film.mkv',
    sceneName: 'Film.2024.2160p-NEW',
  });
  const out = await service(radarr).repairFile({
    path: '/complete/movies/Film.2024.720p-OLD/film.mkv',
    downloadId: 'nzo_old',
  });
  assert.deepEqual(out, { kind: 'not_found' });
  assert.ok(radarr.lib.movieFiles.has(newer.id));
  assert.deepEqual(radarr.lib.blocklist, []);
  assert.ok(radarr.callLines().every((l) => !l.startsWith('DELETE') && !l.startsWith('POST')));
});
