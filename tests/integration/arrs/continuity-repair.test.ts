/**
 * A repair that never makes the title vanish (docs/arrs.md "Continuity", docs/health.md "Continuity"), end to end on
 * the real server: a film grabbed through Spool's SABnzbd API, imported from INN as a symlink into the fake
 * Radarr's library; an article cancelled in INN; a health check finds the film corrupted (evidence) and, with no
 * PAR2 to cover it, the arr is asked: the record is kept with its revision lowered and the grab blocklisted, so a
 * same-quality release now passes the arr's grab gate. All that time the film stays listed and reads where its
 * articles are. The fake Radarr grabs a replacement through the SABnzbd API and imports it as an upgrade; once its
 * first bytes read, Spool retires the old release, and the fake Plex and Jellyfin each get one refresh of the film's
 * folder. The repair history shows every step.
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, open, readFile, readlink, rename, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { RepairHistoryJson } from '../../../appliance/health/health.wire.js';
import { arrMoveInto, pollArrUntil, startSymlinkLoop, type SymlinkLoop } from '../../support/arr-loop.js';
import { defaultQuality, startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { startFakeMediaServer, type FakeMediaServer } from '../../support/fake-mediaserver/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api } from '../../support/server.js';
import { sha256 } from '../import/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

let inn: InnServer;
let radarr: FakeArr;
let loop: SymlinkLoop;
let plex: FakeMediaServer;
let jellyfin: FakeMediaServer;

const ARTICLE = 200_000;
const libraries: string[] = [];

before(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  // their libraries are the arr's library folder (known once the loop made it): they see the arr's paths
  plex = await startFakeMediaServer({ kind: 'plex', libraries });
  jellyfin = await startFakeMediaServer({ kind: 'jellyfin', libraries });
  const media = (name: string, f: FakeMediaServer) => ({
    name,
    kind: f.kind,
    url: f.url,
    token: f.token,
    enabled: true,
    refresh_imports: false,
    path_mappings: [],
  });
  loop = await startSymlinkLoop(
    inn,
    {},
    {
      arrs: {
        enabled: true,
        radarr_instances: [{ name: 'Movies', type: 'radarr', url: radarr.url, api_key: radarr.apiKey }],
      },
      health: {
        enabled: true,
        auto_repair_enabled: true,
        check_interval_seconds: 86_400,
        check_all_segments: true,
        repair_delay_minutes: 0,
      },
      media_servers: {
        enabled: true,
        debounce_seconds: 0,
        servers: [media('plex', plex), media('jellyfin', jellyfin)],
      },
    },
  );
  libraries.push(loop.library);
});

after(async () => {
  await loop?.stop();
  await Promise.all([radarr?.close(), plex?.close(), jellyfin?.close()]);
});

/** Grab through the SABnzbd API as Radarr does, and wait until Spool says Completed. */
async function grab(title: string, fileName: string, data: Buffer) {
  const arr = loop.radarr();
  const posted = await inn.postFile(fileName, data, { articleSize: ARTICLE });
  const id = await arr.addFile(title, posted.nzbXml);
  const item = await pollArrUntil(arr, id, ['Completed', 'Failed']);
  assert.equal(item.status, 'Completed', item.message);
  return { id, item, posted };
}

const key = () => loop.apiKey;
async function record(path: string) {
  const res = await api<{ id: number; status: string; last_error: string | null }>(
    loop.srv.baseUrl,
    `/api/health/${encodeURIComponent(path)}`,
    { headers: { 'x-api-key': key() } },
  );
  return res;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  return waitUntil(what, probe);
}

/** Bytes [start, end) of a file through its library link (the FUSE mount behind it). */
async function readRange(link: string, start: number, end: number): Promise<Buffer> {
  const fh = await open(link, 'r');
  try {
    const buf = Buffer.alloc(end - start);
    const { bytesRead } = await fh.read(buf, 0, buf.length, start);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

test('a film PAR2 cannot cover stays readable at its library path through the repair; the replacement swaps in', async () => {
  const data = film(3 * ARTICLE);
  const old = await grab('Film.2024.1080p-GRP', 'film.2024.mkv', data);
  const folder = join(loop.library, 'Film (2024)');
  await mkdir(folder);
  const [link] = await arrMoveInto(old.item.outputPath!, folder);
  const target = await readlink(link!);
  const virtualPath = target.slice(loop.mnt.length);
  const filmRecord = radarr.addMovie({ title: 'Film', path: folder });
  const filmFile = radarr.addMovieFile(filmRecord.id, { path: link!, sceneName: 'Film.2024.1080p-GRP' });
  const grabbed = radarr.addGrab({ downloadId: old.id, movieId: filmRecord.id, sourceTitle: 'Film.2024.1080p-GRP' });

  // The middle article is gone: one of three is far over 1%: corrupted, and no PAR2 covers it.
  cancelArticles(inn, [old.posted.messageIds[1]!]);
  const rec = (await record(virtualPath)).body.data!;
  const check = await api(loop.srv.baseUrl, '/api/health/check', {
    method: 'POST',
    headers: { 'x-api-key': key() },
    json: { file_path: virtualPath, source_nzb_path: '', priority: true },
  });
  assert.equal(check.status, 200, JSON.stringify(check.body));
  await waitFor('the arr asked', async () =>
    (await record(virtualPath)).body.data?.status === 'repair_triggered' ? true : undefined,
  );

  // The arr kept the record, its revision lowered; the grab is blocklisted; a like-for-like release now passes.
  assert.ok(radarr.callLines().includes('PUT moviefile/bulk'), radarr.callLines().join(', '));
  assert.ok(radarr.callLines().includes(`POST history/failed/${grabbed.id}`));
  assert.ok(!radarr.callLines().some((c) => c.startsWith('DELETE')), 'nothing deleted');
  assert.equal(radarr.wouldGrab(filmFile.id, defaultQuality()), true);
  // Meanwhile the title is still in the library: listed, its link resolves, its intact articles read.
  assert.ok((await lstat(link!)).isSymbolicLink());
  assert.ok((await readRange(link!, 0, ARTICLE)).equals(data.subarray(0, ARTICLE)));
  assert.ok((await readRange(link!, 2 * ARTICLE, 3 * ARTICLE)).equals(data.subarray(2 * ARTICLE)));
  const listing = await fetch(`${loop.srv.baseUrl}/webdav${dirname(virtualPath)}`, {
    method: 'PROPFIND',
    headers: { Depth: '1', 'x-api-key': key() },
  });
  assert.match(await listing.text(), new RegExp(basename(virtualPath).replace(/\./g, '\\.')));

  // The arr's search grabs a replacement through Spool, and imports it as an upgrade (old link out, new link in).
  const fresh = film(3 * ARTICLE);
  const replacement = await grab('Film.2024.1080p-NEW', 'film.2024.mkv', fresh);
  const newLink = join(folder, 'film.2024.mkv');
  await radarr.importUpgrade({
    oldFileId: filmFile.id,
    downloadId: replacement.id,
    path: newLink,
    droppedPath: join(replacement.item.outputPath!, 'film.2024.mkv'),
    sourceTitle: 'Film.2024.1080p-NEW',
    placeAt: async () => {
      const dropped = join(replacement.item.outputPath!, 'film.2024.mkv');
      await symlink(await readlink(dropped), newLink + '.tmp');
      await rename(newLink + '.tmp', newLink);
    },
  });

  // Spool looks for the replacement (an operator's "repair now" asks at once; the loop asks on its own schedule).
  const now = await api(loop.srv.baseUrl, `/api/health/${rec.id}/repair`, {
    method: 'POST',
    headers: { 'x-api-key': key() },
    json: {},
  });
  assert.ok(now.status === 200 || now.status === 404, JSON.stringify(now.body));
  await waitFor('the old release retired', async () => ((await record(virtualPath)).status === 404 ? true : undefined));
  const gone = await fetch(`${loop.srv.baseUrl}/webdav${virtualPath}`, { headers: { 'x-api-key': key() } });
  assert.equal(gone.status, 404, 'the old release is out of the tree');
  await gone.body?.cancel();
  assert.equal(sha256(await readFile(newLink)), sha256(fresh), 'the library path reads the replacement byte-exact');

  // Each media server gets one refresh of the film's folder for the swap.
  assert.deepEqual(await plex.waitForRefreshes(1), [{ folder, kind: 'refresh' }]);
  assert.deepEqual(await jellyfin.waitForRefreshes(1), [{ folder, kind: 'Modified' }]);

  // The repair history shows every step.
  const steps = await waitFor('the history of every step', async () => {
    const res = await api<RepairHistoryJson[]>(loop.srv.baseUrl, '/api/health/repairs/history?limit=50', {
      headers: { 'x-api-key': key() },
    });
    const mine = (res.body.data ?? []).filter((e) => e.file_path === virtualPath || e.file_path === folder);
    const names = mine.map((e) => e.step);
    return ['arr_asked', 'replacement_imported', 'old_retired'].every((s) => names.includes(s as never)) &&
      names.filter((s) => s === 'media_servers_told').length === 2
      ? mine
      : undefined;
  });
  assert.ok(
    steps.every((e) => e.result === 'done'),
    JSON.stringify(steps),
  );
  assert.deepEqual(radarr.unexpected, []);
});
