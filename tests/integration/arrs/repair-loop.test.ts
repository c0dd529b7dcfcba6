/**
 * Repair end to end on the real server: a release the arr grabbed through Spool's SABnzbd API is imported from
 * INN with the symlink strategy and served by Spool's FUSE mount; the (fake) Radarr moves the symlink into its
 * library as the real one does; then app.arrs.repair.repairFile, given the virtual path and the nzo_id, finds that
 * record through the grab and the link, deletes it, blocklists the grab and searches. The other movie's record and
 * link stay, and the content on the mount stays readable.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { lstat, mkdir, readFile, readdir, readlink, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { isMounted } from '../../../appliance/fuse/mount.service.js';
import { ArrSabClient, type ArrItem } from '../../support/arr-sab-client.js';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { innProvider } from '../../support/inn/provider.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { sha256 } from '../import/support.js';

const run = promisify(execFile);
let inn: InnServer;
let srv: TestServer;
let radarr: FakeArr;
let root: string;
let mnt: string;
let downloads: string;
let library: string;
let apiKey = '';

before(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  root = mkdtempSync(join(tmpdir(), 'spool-repair-'));
  mnt = join(root, 'mnt');
  downloads = join(root, 'downloads');
  library = join(root, 'library');
  await mkdir(mnt);
  await mkdir(library);
  srv = await startServer({
    config: {
      mount_path: mnt,
      providers: [innProvider(inn, { max_connections: 4 })],
      import: {
        queue_processing_interval_seconds: 1,
        import_strategy: 'symlink',
        import_dir: downloads,
      },
      sabnzbd: { enabled: true },
      arrs: {
        enabled: true,
        radarr_instances: [{ name: 'Movies', type: 'radarr', url: radarr.url, api_key: radarr.apiKey }],
      },
    },
  });
  const admin = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'admin', password: 'correct horse' },
  });
  apiKey = admin.body.data!.user.api_key;
  const started = await api(srv.baseUrl, '/api/rclone/mount/start', {
    method: 'POST',
    headers: { 'x-api-key': apiKey },
  });
  assert.equal(started.status, 200, JSON.stringify(started.body));
});

after(async () => {
  await srv?.stop();
  await radarr?.close();
  if (mnt && isMounted(mnt)) await run('fusermount3', ['-uz', mnt]).catch(() => undefined);
  if (root) rmSync(root, { recursive: true, force: true });
});

async function completed(arr: ArrSabClient, id: string): Promise<ArrItem> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const item = (await arr.getItems()).find((i) => i.downloadId === id);
    if (item && (item.status === 'Completed' || item.status === 'Failed')) return item;
    if (Date.now() > deadline) throw new Error(`${id} still ${item?.status ?? 'absent'}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Grab through the SABnzbd API, wait for Completed, then move the links into the library as the arr does. */
async function grabAndImport(title: string, fileName: string, data: Buffer): Promise<{ id: string; links: string[] }> {
  const arr = new ArrSabClient({ baseUrl: srv.baseUrl, urlBase: '/sabnzbd', apiKey, category: 'movies' });
  const posted = await inn.postFile(fileName, data, { articleSize: 200_000 });
  const id = await arr.addFile(title, posted.nzbXml);
  const item = await completed(arr, id);
  assert.equal(item.status, 'Completed', item.message);
  const dest = join(library, title);
  await mkdir(dest);
  const links: string[] = [];
  for (const name of await readdir(item.outputPath!)) {
    const from = join(item.outputPath!, name);
    if (!(await lstat(from)).isSymbolicLink()) continue;
    await symlink(await readlink(from), join(dest, name));
    await unlink(from);
    links.push(join(dest, name));
  }
  return { id, links };
}

test('the grabbed, imported and moved file is repaired through its grab; nothing else is touched', async () => {
  const data = randomBytes(600_000);
  const ours = await grabAndImport('Film.2024.1080p-GRP', 'film.2024.mkv', data);
  const other = await grabAndImport('Other.2023.720p-GRP', 'other.2023.mkv', randomBytes(300_000));
  assert.equal(ours.links.length, 1);

  const film = radarr.addMovie({ title: 'Film', path: join(library, 'Film.2024.1080p-GRP') });
  const filmFile = radarr.addMovieFile(film.id, { path: ours.links[0]!, sceneName: 'Film.2024.1080p-GRP' });
  const grab = radarr.addGrab({ downloadId: ours.id, movieId: film.id, sourceTitle: 'Film.2024.1080p-GRP' });
  const otherMovie = radarr.addMovie({ title: 'Other' });
  const otherFile = radarr.addMovieFile(otherMovie.id, { path: other.links[0]! });
  radarr.addGrab({ downloadId: other.id, movieId: otherMovie.id });

  // What the health domain passes: the virtual path of the broken file (the link's target minus the mount).
  const target = await readlink(ours.links[0]!);
  assert.ok(target.startsWith(`${mnt}/`));
  const virtualPath = target.slice(mnt.length);
  const outcome = await srv.app().arrs.repair.repairFile({ path: virtualPath, downloadId: ours.id });
  assert.deepEqual(outcome, {
    kind: 'triggered',
    instance: 'Movies',
    arrType: 'radarr',
    itemId: film.id,
    fileId: filmFile.id,
    blocklisted: true,
    searched: true,
  });
  assert.deepEqual(radarr.callLines(), [
    'GET history',
    'GET moviefile',
    `DELETE moviefile/${filmFile.id}`,
    `POST history/failed/${grab.id}`,
    'GET config/downloadclient',
    'POST command',
  ]);
  assert.deepEqual(
    radarr.lib.blocklist.map((b) => b.downloadId),
    [ours.id],
  );
  assert.deepEqual(
    radarr.lib.commands.map((c) => c.body),
    [{ name: 'MoviesSearch', movieIds: [film.id] }],
  );
  // The arr removed its link; the content is still on the mount; the other movie is as it was.
  assert.equal(existsSync(ours.links[0]!), false);
  assert.equal(sha256(await readFile(target)), sha256(data));
  assert.deepEqual([...radarr.lib.movieFiles.keys()], [otherFile.id]);
  assert.ok((await lstat(other.links[0]!)).isSymbolicLink());
  assert.deepEqual(radarr.unexpected, []);
});
