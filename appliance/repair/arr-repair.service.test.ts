/**
 * ArrRepairService against fake Radarr and Sonarr servers (tests/support/fake-arr) and real symlinks in a temp dir
 * standing in for the arr's library and Spool's mount: the exact calls, that no other record is touched, and how
 * 404, 409, 5xx, timeouts and wrong keys come out.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULTS, type ArrInstance, type SpoolConfig } from '../config/index.js';
import { memoryLogger } from '../logging/logger.js';
import { fakeArrInstance, fakeArrPerTest } from '../../tests/support/fake-arr/fixtures.js';
import { defaultQuality, startFakeArr, type FakeArr } from '../../tests/support/fake-arr/server.js';
import { ArrClient } from '../arrs/arr.client.js';
import { ArrRepairService, type ArrRepairOutcome } from './arr-repair.service.js';

let dir: string;
let mount: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'spool-repair-'));
  mount = join(dir, 'mnt');
});
after(() => rmSync(dir, { recursive: true, force: true }));
const startFake = fakeArrPerTest();
const fake = (type: 'radarr' | 'sonarr', opts: { autoRedownloadFailed?: boolean; apiKey?: string } = {}) =>
  startFake({ type, ...opts });

/** A file in the stand-in mount, and a library symlink pointing at it (what the arr holds after its import). */
function linked(virtualPath: string, libraryPath: string): { content: string; link: string } {
  const content = join(mount, virtualPath);
  mkdirSync(dirname(content), { recursive: true });
  writeFileSync(content, 'streamable bytes');
  const link = join(dir, libraryPath);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(content, link);
  return { content, link };
}

const instance = (a: FakeArr, extra: Partial<ArrInstance> = {}): ArrInstance =>
  fakeArrInstance(a, { name: `${a.type}-${a.port}`, ...extra });

function service(instances: ArrInstance[], enabled = true) {
  const config = {
    ...structuredClone(DEFAULTS),
    mount_path: mount,
    arrs: {
      enabled,
      radarr_instances: instances.filter((i) => i.type === 'radarr'),
      sonarr_instances: instances.filter((i) => i.type === 'sonarr'),
    },
  } as SpoolConfig;
  return new ArrRepairService({ config: { get: () => config }, logger: memoryLogger() });
}

test('Radarr, by download id: the file stays, its revision lowered, the grab blocklisted, a search; the other movie untouched', async () => {
  const radarr = await fake('radarr');
  const { content, link } = linked('/complete/movies/Film.2020.1080p/film.mkv', 'movies/Film (2020)/Film.mkv');
  const other = linked('/complete/movies/Other.2019/other.mkv', 'movies/Other (2019)/Other.mkv');
  const film = radarr.addMovie({ title: 'Film', path: join(dir, 'movies/Film (2020)') });
  const otherMovie = radarr.addMovie({ title: 'Other' });
  const file = radarr.addMovieFile(film.id, { path: link, sceneName: 'Film.2020.1080p' });
  const otherFile = radarr.addMovieFile(otherMovie.id, { path: other.link });
  const grab = radarr.addGrab({ downloadId: 'SABnzbd_nzo_film', movieId: film.id, sourceTitle: 'Film.2020.1080p' });
  // Before: a like-for-like release is refused while the file exists ("Existing file meets cutoff").
  const sameRelease = defaultQuality();
  assert.equal(radarr.wouldGrab(file.id, sameRelease), false);

  const out = await service([instance(radarr)]).repairFile({
    path: '/complete/movies/Film.2020.1080p/film.mkv',
    downloadId: 'SABnzbd_nzo_film',
  });
  assert.equal(out.kind, 'triggered');
  assert.ok(out.kind === 'triggered');
  assert.deepEqual({ ...out, awaiting: { ...out.awaiting!, since: 0 } }, {
    kind: 'triggered',
    instance: instance(radarr).name,
    arrType: 'radarr',
    itemId: film.id,
    fileId: file.id,
    blocklisted: true,
    searched: true,
    route: 'replace',
    note: null,
    awaiting: {
      instance: instance(radarr).name,
      arrType: 'radarr',
      itemId: film.id,
      fileId: file.id,
      episodeIds: [],
      quality: defaultQuality(),
      downloadId: 'SABnzbd_nzo_film',
      grabId: grab.id,
      since: 0,
    },
  } satisfies ArrRepairOutcome);
  assert.deepEqual(radarr.callLines(), [
    'GET history',
    'GET moviefile',
    'GET history',
    'GET moviefile',
    'PUT moviefile/bulk',
    `POST history/failed/${grab.id}`,
    'GET config/downloadclient',
    'POST command',
  ]);
  assert.deepEqual(radarr.calls.at(-1)!.body, { name: 'MoviesSearch', movieIds: [film.id] });
  assert.deepEqual(
    radarr.lib.blocklist.map((b) => b.historyId),
    [grab.id],
  );
  // Now the same release counts as a revision upgrade; the record and its symlink are still there.
  assert.equal(radarr.wouldGrab(file.id, sameRelease), true);
  assert.equal(radarr.lib.movieFiles.get(file.id)!.quality!.revision.version, 0);
  assert.equal(existsSync(link), true);
  assert.equal(existsSync(content), true);
  assert.deepEqual([...radarr.lib.movieFiles.keys()], [file.id, otherFile.id]);
  assert.deepEqual(radarr.lib.movieFiles.get(otherFile.id)!.quality, defaultQuality(), 'the other file is untouched');

  // Asked again after a restart cut the repair short: the grab is failed already, nothing is asked twice.
  radarr.calls.length = 0;
  const again = await service([instance(radarr)]).repairFile({
    path: '/complete/movies/Film.2020.1080p/film.mkv',
    downloadId: 'SABnzbd_nzo_film',
  });
  assert.equal(again.kind, 'triggered');
  assert.ok(!radarr.callLines().some((c) => c.startsWith('POST history/failed') || c.startsWith('PUT')));
  assert.equal(radarr.lib.blocklist.length, 1);
});

test('an arr without the bulk file editor: the record is deleted, blocklisted and searched as before, saying why', async () => {
  const radarr = await fake('radarr');
  const { link } = linked('/complete/movies/Old.2018/old.mkv', 'movies/Old (2018)/Old.mkv');
  const m = radarr.addMovie({ title: 'Old' });
  const file = radarr.addMovieFile(m.id, { path: link });
  const grab = radarr.addGrab({ downloadId: 'nzo_old', movieId: m.id });
  radarr.fail({ method: 'PUT', path: /^moviefile\/bulk/, status: 404 });
  const out = await service([instance(radarr)]).repairFile({
    path: '/complete/movies/Old.2018/old.mkv',
    downloadId: 'nzo_old',
  });
  assert.ok(out.kind === 'triggered' && out.route === 'delete');
  assert.match(out.note ?? '', /cannot keep the file while replacing it/);
  assert.ok(radarr.callLines().includes(`DELETE moviefile/${file.id}`));
  assert.ok(radarr.callLines().includes(`POST history/failed/${grab.id}`));
});

test('Radarr with "Redownload Failed" on: the blocklist searches, Spool does not search twice', async () => {
  const radarr = await fake('radarr', { autoRedownloadFailed: true });
  const { link } = linked('/complete/movies/Auto.2021/auto.mkv', 'movies/Auto (2021)/Auto.mkv');
  const m = radarr.addMovie({ title: 'Auto' });
  radarr.addMovieFile(m.id, { path: link });
  radarr.addGrab({ downloadId: 'nzo_auto', movieId: m.id });
  const out = await service([instance(radarr)]).repairFile({
    path: '/complete/movies/Auto.2021/auto.mkv',
    downloadId: 'nzo_auto',
  });
  assert.equal(out.kind, 'triggered');
  assert.equal(out.kind === 'triggered' && out.blocklisted && out.searched, true);
  assert.deepEqual(
    radarr.lib.commands.map((c) => [c.source, c.body]),
    [['redownload', { name: 'MoviesSearch', movieIds: [m.id] }]],
  );
});

test('Sonarr, no download id, release not parsed: the library walk finds the symlink; sibling episode untouched', async () => {
  const sonarr = await fake('sonarr');
  const s1 = sonarr.addSeries({ title: 'Unrelated' });
  const show = sonarr.addSeries({ title: 'Show' });
  const e1 = sonarr.addEpisode(show.id, { seasonNumber: 1, episodeNumber: 1 });
  const e2 = sonarr.addEpisode(show.id, { seasonNumber: 1, episodeNumber: 2 });
  const a = linked('/complete/tv/Show.S01E01.720p/show.s01e01.mkv', 'tv/Show/Season 1/S01E01.mkv');
  const b = linked('/complete/tv/Show.S01E02.720p/show.s01e02.mkv', 'tv/Show/Season 1/S01E02.mkv');
  const f1 = sonarr.addEpisodeFile(show.id, { path: a.link, episodeIds: [e1.id] });
  const f2 = sonarr.addEpisodeFile(show.id, { path: b.link, episodeIds: [e2.id] });
  const out = await service([instance(sonarr)]).repairFile({
    path: join(mount, '/complete/tv/Show.S01E01.720p/show.s01e01.mkv'),
  });
  assert.deepEqual(out, {
    kind: 'triggered',
    instance: instance(sonarr).name,
    arrType: 'sonarr',
    itemId: show.id,
    fileId: f1.id,
    blocklisted: false,
    searched: true,
    route: 'delete',
    note: 'the arr has no grab of the download that brought the file',
  });
  assert.deepEqual(sonarr.callLines(), [
    'GET parse',
    'GET series',
    'GET episodefile',
    'GET episodefile',
    'GET episode',
    `DELETE episodefile/${f1.id}`,
    'POST command',
  ]);
  assert.deepEqual(sonarr.calls[2]!.query, { seriesId: String(s1.id) });
  assert.deepEqual(sonarr.calls.at(-1)!.body, { name: 'EpisodeSearch', episodeIds: [e1.id] });
  assert.deepEqual([...sonarr.lib.episodeFiles.keys()], [f2.id]);
  assert.equal(existsSync(b.link), true);
  assert.equal(existsSync(a.content), true);
});

test('Sonarr: a release the arr parses is looked up in that series only', async () => {
  const sonarr = await fake('sonarr');
  const show = sonarr.addSeries({ title: 'Parsed' });
  const e = sonarr.addEpisode(show.id, { seasonNumber: 2, episodeNumber: 5 });
  const { link } = linked('/complete/tv/Parsed.S02E05/p.mkv', 'tv/Parsed/S02E05.mkv');
  const f = sonarr.addEpisodeFile(show.id, { path: link, episodeIds: [e.id] });
  sonarr.parseAs('Parsed.S02E05', { seriesId: show.id, episodeIds: [e.id] });
  const out = await service([instance(sonarr)]).repairFile({ path: '/complete/tv/Parsed.S02E05/p.mkv' });
  assert.equal(out.kind, 'triggered');
  assert.deepEqual(sonarr.callLines(), [
    'GET parse',
    'GET episodefile',
    'GET episode',
    `DELETE episodefile/${f.id}`,
    'POST command',
  ]);
});

test("root_folder: a record on the instance's view of the mount matches without any symlink", async () => {
  const radarr = await fake('radarr');
  const m = radarr.addMovie({ title: 'Direct' });
  const f = radarr.addMovieFile(m.id, { path: '/data/spool/complete/movies/Direct.2022/direct.mkv' });
  const decoy = radarr.addMovie({ title: 'Decoy' });
  radarr.addMovieFile(decoy.id, { path: '/data/spool/complete/movies/Direct.2022/direct.mkv.part' });
  const out = await service([instance(radarr, { root_folder: '/data/spool/' })]).repairFile({
    path: '/complete/movies/Direct.2022/direct.mkv',
  });
  assert.equal(out.kind === 'triggered' && out.fileId, f.id);
  assert.equal(radarr.lib.movieFiles.size, 1);
});

test('strm strategy: the .strm file whose WebDAV URL names the file, not its neighbour', async () => {
  const radarr = await fake('radarr');
  const strm = (name: string, url: string) => {
    const at = join(dir, 'strm-library', name);
    mkdirSync(dirname(at), { recursive: true });
    writeFileSync(at, `${url}\n`);
    return at;
  };
  const ours = radarr.addMovie({ title: 'Streamed' });
  const oursFile = radarr.addMovieFile(ours.id, {
    path: strm(
      'Streamed (2023)/Streamed.strm',
      'http://u:p@spool:8080/webdav/complete/movies/Streamed.2023/Streamed%202023.mkv',
    ),
  });
  const near = radarr.addMovie({ title: 'Near' });
  radarr.addMovieFile(near.id, {
    path: strm('Near/Near.strm', 'http://spool:8080/webdav/complete/movies/Streamed.2023/Streamed%202023.mkv.part'),
  });
  const out = await service([instance(radarr)]).repairFile({
    path: '/complete/movies/Streamed.2023/Streamed 2023.mkv',
  });
  assert.equal(out.kind === 'triggered' && out.fileId, oursFile.id);
  assert.equal(radarr.lib.movieFiles.size, 1);
});

test('by grab when the library is not visible to Spool: the only file imported under that release name', async () => {
  const sonarr = await fake('sonarr');
  const show = sonarr.addSeries({ title: 'Pack' });
  const eps = [1, 2].map((n) => sonarr.addEpisode(show.id, { seasonNumber: 1, episodeNumber: n }));
  // A season pack whose two files share the release name: not provably ours, so nothing is touched.
  for (const e of eps) {
    sonarr.addEpisodeFile(show.id, {
      path: `/elsewhere/Pack/S01E0${e.episodeNumber}.mkv`,
      sceneName: 'Pack.S01.1080p',
      episodeIds: [e.id],
    });
  }
  sonarr.addGrab({ downloadId: 'nzo_pack', seriesId: show.id, episodeId: eps[0]!.id, sourceTitle: 'Pack.S01.1080p' });
  const svc = service([instance(sonarr)]);
  assert.deepEqual(
    await svc.repairFile({ path: '/complete/tv/Pack.S01.1080p/pack.s01e01.mkv', downloadId: 'nzo_pack' }),
    {
      kind: 'not_found',
    },
  );
  assert.equal(sonarr.lib.episodeFiles.size, 2);
  assert.equal(
    sonarr.callLines().some((l) => l.startsWith('DELETE')),
    false,
  );

  const radarr = await fake('radarr');
  const m = radarr.addMovie({ title: 'Hidden' });
  const f = radarr.addMovieFile(m.id, {
    path: '/elsewhere/Hidden (2020)/Hidden.mkv',
    sceneName: 'Hidden.2020',
    size: 42,
  });
  const g = radarr.addGrab({ downloadId: 'nzo_hidden', movieId: m.id, sourceTitle: 'Hidden.2020' });
  const r = service([instance(radarr)]);
  // A subtitle of that release is not the movie file; a wrong size is not either.
  assert.equal(
    (await r.repairFile({ path: '/complete/movies/Hidden.2020/hidden.srt', downloadId: 'nzo_hidden' })).kind,
    'not_found',
  );
  assert.equal(
    (await r.repairFile({ path: '/complete/movies/Hidden.2020/hidden.mkv', downloadId: 'nzo_hidden', size: 41 })).kind,
    'not_found',
  );
  const out = await r.repairFile({
    path: '/complete/movies/Hidden.2020/hidden.mkv',
    downloadId: 'nzo_hidden',
    size: 42,
  });
  assert.equal(out.kind === 'triggered' && out.fileId === f.id && out.blocklisted, true);
  assert.deepEqual(
    radarr.lib.blocklist.map((b) => b.historyId),
    [g.id],
  );
});

test('not found: nothing deleted anywhere; disabled arrs or instances are not even asked', async () => {
  const radarr = await fake('radarr');
  const sonarr = await fake('sonarr');
  const m = radarr.addMovie({ title: 'Keep' });
  radarr.addMovieFile(m.id, { path: linked('/complete/movies/Keep/keep.mkv', 'movies/Keep/Keep.mkv').link });
  const path = '/complete/movies/Nobody/nobody.mkv';
  assert.deepEqual(await service([instance(radarr), instance(sonarr)]).repairFile({ path }), { kind: 'not_found' });
  assert.equal(
    [...radarr.callLines(), ...sonarr.callLines()].some((l) => !l.startsWith('GET')),
    false,
  );
  assert.equal(radarr.lib.movieFiles.size, 1);

  const before = radarr.calls.length + sonarr.calls.length;
  assert.deepEqual(await service([instance(radarr), instance(sonarr)], false).repairFile({ path }), {
    kind: 'not_found',
  });
  assert.deepEqual(await service([instance(radarr, { enabled: false })]).repairFile({ path }), { kind: 'not_found' });
  assert.equal(radarr.calls.length + sonarr.calls.length, before);
});

test('409 (root folder missing) on the delete is retryable and blocklists nothing; the retry then works', async () => {
  const radarr = await fake('radarr');
  const { link } = linked('/complete/movies/Unmounted/u.mkv', 'movies/Unmounted/U.mkv');
  const m = radarr.addMovie({ title: 'Unmounted' });
  radarr.addMovieFile(m.id, { path: link });
  radarr.addGrab({ downloadId: 'nzo_u', movieId: m.id });
  // an arr without the bulk editor takes the delete route, whose failsafe this is (the replace route deletes nothing)
  radarr.fail({ method: 'PUT', path: /^moviefile\/bulk/, status: 404 });
  radarr.rootFolderMissing = true;
  const svc = service([instance(radarr)]);
  const input = { path: '/complete/movies/Unmounted/u.mkv', downloadId: 'nzo_u' };
  const first = await svc.repairFile(input);
  assert.equal(first.kind, 'retryable');
  assert.match(first.kind === 'retryable' ? first.reason : '', /HTTP 409.*root folder/);
  assert.deepEqual(radarr.lib.blocklist, []);
  assert.deepEqual(radarr.lib.commands, []);
  assert.equal(existsSync(link), true);

  radarr.rootFolderMissing = false;
  assert.equal((await svc.repairFile(input)).kind, 'triggered');
});

test('5xx, timeouts and an unreachable arr are retryable; a 404 on the delete and a wrong key are failures', async () => {
  const radarr = await fake('radarr');
  const { link } = linked('/complete/movies/Flaky/f.mkv', 'movies/Flaky/F.mkv');
  const m = radarr.addMovie({ title: 'Flaky' });
  const f = radarr.addMovieFile(m.id, { path: link });
  radarr.addGrab({ downloadId: 'nzo_f', movieId: m.id });
  const input = { path: '/complete/movies/Flaky/f.mkv', downloadId: 'nzo_f' };
  const svc = service([instance(radarr)]);
  radarr.fail({ method: 'PUT', path: /^moviefile\/bulk/, status: 404 }); // the delete route's failures

  radarr.fail({ path: 'history', status: 503, times: 1 });
  const s5 = await svc.repairFile(input);
  assert.equal(s5.kind, 'retryable');
  assert.match(s5.kind === 'retryable' ? s5.reason : '', /HTTP 503/);

  radarr.fail({ method: 'DELETE', path: /^moviefile\//, status: 500, times: 1 });
  assert.equal((await svc.repairFile(input)).kind, 'retryable');
  assert.equal(radarr.lib.movieFiles.has(f.id), true);

  radarr.fail({ method: 'DELETE', path: /^moviefile\//, status: 404, times: 1 });
  const gone = await svc.repairFile(input);
  assert.equal(gone.kind, 'failed');
  assert.deepEqual(radarr.lib.blocklist, []);

  radarr.fail({ path: 'history', status: 'hang', times: 1 });
  const config = { ...structuredClone(DEFAULTS), mount_path: mount } as SpoolConfig;
  config.arrs = { enabled: true, radarr_instances: [instance(radarr)], sonarr_instances: [] };
  const impatient = new ArrRepairService({
    config: { get: () => config },
    logger: memoryLogger(),
    clientFor: (i) => new ArrClient({ type: i.type, url: i.url, apiKey: i.api_key, timeoutMs: 200 }),
  });
  const slow = await impatient.repairFile(input);
  assert.equal(slow.kind, 'retryable');
  assert.match(slow.kind === 'retryable' ? slow.reason : '', /no answer within 200 ms/);

  const wrongKey = await service([instance(radarr, { api_key: 'wrong' })]).repairFile(input);
  assert.equal(wrongKey.kind, 'failed');
  assert.match(wrongKey.kind === 'failed' ? wrongKey.reason : '', /API key was refused/);

  const closed = await startFakeArr({ type: 'sonarr' });
  const down = instance(closed);
  await closed.close();
  // Radarr answers "not mine", Sonarr cannot be asked: it might own the file, so try later.
  radarr.addMovie({ title: 'Nothing' });
  const mixed = await service([instance(radarr), down]).repairFile({ path: '/complete/tv/X/x.mkv' });
  assert.equal(mixed.kind, 'retryable');
  assert.match(mixed.kind === 'retryable' ? mixed.reason : '', /unreachable/);
  assert.equal(radarr.lib.movieFiles.has(f.id), true);
});

test('after the delete, a failing search lowers the flag instead of failing the repair', async () => {
  const sonarr = await fake('sonarr');
  const show = sonarr.addSeries({ title: 'Late' });
  const e = sonarr.addEpisode(show.id, { seasonNumber: 1, episodeNumber: 1 });
  const { link } = linked('/complete/tv/Late.S01E01/l.mkv', 'tv/Late/S01E01.mkv');
  sonarr.addEpisodeFile(show.id, { path: link, episodeIds: [e.id] });
  sonarr.fail({ method: 'POST', path: 'command', status: 503 });
  const out = await service([instance(sonarr)]).repairFile({ path: '/complete/tv/Late.S01E01/l.mkv' });
  assert.equal(out.kind === 'triggered' && !out.searched && !out.blocklisted, true);
});

test('two repairs of the same file at once make one set of calls', async () => {
  const radarr = await fake('radarr');
  const { link } = linked('/complete/movies/Twice/t.mkv', 'movies/Twice/T.mkv');
  const m = radarr.addMovie({ title: 'Twice' });
  radarr.addMovieFile(m.id, { path: link });
  const svc = service([instance(radarr)]);
  const [a, b] = await Promise.all([
    svc.repairFile({ path: '/complete/movies/Twice/t.mkv' }),
    svc.repairFile({ path: join(mount, '/complete/movies/Twice/t.mkv') }),
  ]);
  assert.deepEqual(a, b);
  assert.equal(radarr.callLines().filter((l) => l.startsWith('DELETE')).length, 1);
});
