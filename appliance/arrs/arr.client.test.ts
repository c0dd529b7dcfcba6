import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeArr, type FakeArr } from '../../tests/support/fake-arr/server.js';
import { ArrClient } from './arr.client.js';
import { ArrError } from './arr.errors.js';

let radarr: FakeArr;
let sonarr: FakeArr;

before(async () => {
  radarr = await startFakeArr({ type: 'radarr' });
  sonarr = await startFakeArr({ type: 'sonarr' });
});
after(async () => {
  await radarr.close();
  await sonarr.close();
});

const client = (arr: FakeArr, extra: Partial<ConstructorParameters<typeof ArrClient>[0]> = {}) =>
  new ArrClient({ type: arr.type, url: arr.url + '/', apiKey: arr.apiKey, name: 'main', ...extra });

async function failure(p: Promise<unknown>): Promise<ArrError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ArrError, `not an ArrError: ${String(err)}`);
    return err;
  }
  assert.fail('expected a failure');
}

test('reads status, root folders, movies and files with the key in X-Api-Key', async () => {
  const movie = radarr.addMovie({ title: 'Film', tmdbId: 603, path: '/movies/Film (1999)' });
  const file = radarr.addMovieFile(movie.id, { path: '/movies/Film (1999)/Film.mkv', sceneName: 'Film.1999' });
  radarr.addMovie({ title: 'Other', tmdbId: 604 });
  const c = client(radarr);
  assert.equal((await c.systemStatus()).appName, 'Radarr');
  assert.deepEqual(
    (await c.rootFolders()).map((r) => r.path),
    ['/movies'],
  );
  const byTmdb = await c.movies(603);
  assert.equal(byTmdb.length, 1);
  assert.equal(byTmdb[0]!.movieFile?.path, file.path);
  assert.equal((await c.movies()).length, 2);
  assert.deepEqual(
    (await c.movieFiles(movie.id)).map((f) => f.id),
    [file.id],
  );
  const last = radarr.calls.at(-1)!;
  assert.equal(last.apiKey, radarr.apiKey);
  assert.equal(last.path, '/api/v3/moviefile');
  assert.deepEqual(last.query, { movieId: String(movie.id) });
  assert.deepEqual(radarr.unexpected, []);
});

test('series, episode files, episodes of a file and parse on Sonarr', async () => {
  const s = sonarr.addSeries({ title: 'Show', path: '/tv/Show' });
  const e1 = sonarr.addEpisode(s.id, { seasonNumber: 1, episodeNumber: 1 });
  const e2 = sonarr.addEpisode(s.id, { seasonNumber: 1, episodeNumber: 2 });
  const f = sonarr.addEpisodeFile(s.id, { path: '/tv/Show/S01E01E02.mkv', episodeIds: [e1.id, e2.id] });
  sonarr.parseAs('Show.S01E01E02.1080p', { seriesId: s.id, episodeIds: [e1.id, e2.id] });
  const c = client(sonarr);
  assert.equal((await c.series()).length, 1);
  assert.deepEqual(
    (await c.episodeFiles(s.id)).map((x) => x.path),
    [f.path],
  );
  assert.deepEqual(
    (await c.episodesOfFile(f.id)).map((x) => x.id),
    [e1.id, e2.id],
  );
  const parsed = await c.parse('Show.S01E01E02.1080p');
  assert.equal(parsed.series?.id, s.id);
  assert.equal((await c.parse('Unknown.Release')).series, null);
});

test('the grab and import history of one download id, mark failed, delete, commands: the exact calls', async () => {
  const movie = radarr.addMovie({ title: 'Grabbed' });
  const file = radarr.addMovieFile(movie.id, { path: '/nowhere/grabbed.mkv' });
  const grab = radarr.addGrab({ downloadId: 'SABnzbd_nzo_a1', movieId: movie.id, sourceTitle: 'Grabbed.2020' });
  radarr.addGrab({ downloadId: 'SABnzbd_nzo_other', movieId: movie.id });
  const imported = radarr.addImport({
    downloadId: 'SABnzbd_nzo_a1',
    movieId: movie.id,
    fileId: file.id,
    droppedPath: '/downloads/movies/Grabbed.2020/grabbed.mkv',
    importedPath: '/nowhere/grabbed.mkv',
  });
  const c = client(radarr);
  const from = radarr.calls.length;
  const history = await c.downloadHistory('SABnzbd_nzo_a1');
  assert.deepEqual(
    history.map((g) => [g.id, g.eventType]),
    [
      [imported.id, 'downloadFolderImported'],
      [grab.id, 'grabbed'],
    ],
  );
  assert.equal(history[0]!.data?.droppedPath, '/downloads/movies/Grabbed.2020/grabbed.mkv');
  assert.equal(history[0]!.data?.fileId, String(file.id));
  await c.markFailed(grab.id);
  await c.deleteMovieFile(file.id);
  const cmd = await c.searchMovies([movie.id]);
  assert.equal(cmd.name, 'MoviesSearch');
  await c.rescanMovie(movie.id);
  await c.refreshMonitoredDownloads();
  assert.deepEqual(radarr.callLines().slice(from), [
    'GET history',
    `POST history/failed/${grab.id}`,
    `DELETE moviefile/${file.id}`,
    'POST command',
    'POST command',
    'POST command',
  ]);
  assert.equal(radarr.calls[from]!.search, 'downloadId=SABnzbd_nzo_a1&eventType=1&eventType=3&page=1&pageSize=250');
  assert.deepEqual(
    radarr.calls.slice(-3).map((x) => x.body),
    [
      { name: 'MoviesSearch', movieIds: [movie.id] },
      { name: 'RescanMovie', movieId: movie.id },
      { name: 'RefreshMonitoredDownloads' },
    ],
  );
  assert.equal(radarr.lib.movieFiles.has(file.id), false);
  assert.deepEqual(radarr.lib.blocklist, [
    { historyId: grab.id, downloadId: 'SABnzbd_nzo_a1', sourceTitle: 'Grabbed.2020' },
  ]);
});

test('an arr that ignores the history filters never hands back another download', async () => {
  radarr.fail({
    path: 'history',
    status: 200,
    times: 1,
    body: {
      page: 1,
      pageSize: 50,
      totalRecords: 2,
      records: [
        { id: 90, eventType: 'grabbed', downloadId: 'someone-else' },
        { id: 91, eventType: 'downloadFolderImported', downloadId: 'someone-else', data: { fileId: '1' } },
        { id: 92, eventType: 'movieFileDeleted', downloadId: 'mine' },
        { id: 93, eventType: 'grabbed', downloadId: 'mine' },
      ],
    },
  });
  assert.deepEqual(
    (await client(radarr).downloadHistory('mine')).map((r) => r.id),
    [93],
  );
});

test('each failure is its own typed error, retryable or not', async () => {
  const c = client(radarr);
  const wrongKey = await failure(client(radarr, { apiKey: 'wrong' }).systemStatus());
  assert.equal(wrongKey.kind, 'unauthorized');
  assert.equal(wrongKey.retryable, false);
  assert.match(wrongKey.message, /Radarr 'main' GET \/api\/v3\/system\/status: the API key was refused \(HTTP 401\)/);

  const missing = await failure(c.deleteMovieFile(9999));
  assert.deepEqual([missing.kind, missing.retryable, missing.status], ['not_found', false, 404]);

  radarr.fail({ method: 'DELETE', path: /^moviefile\//, status: 409, times: 1 });
  const conflict = await failure(c.deleteMovieFile(1));
  assert.deepEqual([conflict.kind, conflict.retryable], ['conflict', true]);
  assert.match(conflict.message, /root folder/);

  radarr.fail({ path: 'rootfolder', status: 503, times: 1 });
  const server = await failure(c.rootFolders());
  assert.deepEqual([server.kind, server.retryable, server.status], ['server', true, 503]);

  radarr.fail({ path: 'moviefile', status: 400, times: 1 });
  const rejected = await failure(c.movieFiles(1));
  assert.deepEqual([rejected.kind, rejected.retryable], ['rejected', false]);

  const redirecting = http.createServer((_req, res) =>
    res.writeHead(301, { location: 'https://radarr.example/' }).end(),
  );
  await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
  const port = (redirecting.address() as AddressInfo).port;
  const moved = await failure(
    new ArrClient({ type: 'radarr', url: `http://127.0.0.1:${port}`, apiKey: 'k' }).systemStatus(),
  );
  redirecting.close();
  assert.deepEqual([moved.kind, moved.retryable, moved.status], ['rejected', false, 301]);
  assert.match(moved.message, /redirected to https:\/\/radarr\.example\//);

  radarr.fail({ path: 'history', status: 200, times: 1, body: { oops: true } });
  const bad = await failure(c.downloadHistory('x'));
  assert.deepEqual([bad.kind, bad.retryable], ['bad_response', false]);

  radarr.fail({ path: 'system/status', status: 'hang', times: 1 });
  const slow = await failure(client(radarr, { timeoutMs: 200 }).systemStatus());
  assert.deepEqual([slow.kind, slow.retryable], ['timeout', true]);

  const notUrl = await failure(new ArrClient({ type: 'radarr', url: 'radarr:7878', apiKey: 'k' }).systemStatus());
  assert.deepEqual([notUrl.kind, notUrl.retryable], ['invalid_url', false]);
  const withCreds = await failure(
    new ArrClient({ type: 'radarr', url: radarr.url.replace('://', '://u:p@'), apiKey: 'k' }).systemStatus(),
  );
  assert.deepEqual([withCreds.kind, withCreds.retryable], ['invalid_url', false]);

  const closed = await startFakeArr({ type: 'radarr' });
  const url = closed.url;
  await closed.close();
  const down = await failure(new ArrClient({ type: 'radarr', url, apiKey: 'k' }).systemStatus());
  assert.deepEqual([down.kind, down.retryable], ['unreachable', true]);
  assert.match(down.message, /ECONNREFUSED/);
});

test('an arr under a URL base is reached below it', async () => {
  const proxied = await startFakeArr({ type: 'sonarr', urlBase: '/sonarr' });
  try {
    const status = await new ArrClient({
      type: 'sonarr',
      url: `${proxied.url}/sonarr/`,
      apiKey: proxied.apiKey,
    }).systemStatus();
    assert.equal(status.urlBase, '/sonarr');
    assert.deepEqual(proxied.callLines(), ['GET system/status']);
    const bare = await failure(
      new ArrClient({ type: 'sonarr', url: proxied.url, apiKey: proxied.apiKey }).systemStatus(),
    );
    assert.equal(bare.kind, 'not_found');
  } finally {
    await proxied.close();
  }
});

test('the fake is strict: unknown routes are 404 and recorded', async () => {
  const res = await fetch(`${radarr.url}/api/v3/calendar`, { headers: { 'X-Api-Key': radarr.apiKey } });
  assert.equal(res.status, 404);
  assert.equal(radarr.unexpected.at(-1)?.path, '/api/v3/calendar');
  radarr.unexpected.length = 0;
});
