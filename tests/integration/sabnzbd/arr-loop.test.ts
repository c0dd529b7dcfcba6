import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { ArrTestFailure } from '../../support/arr-sab-client.js';
import { arrMoveInto, LOOP_ADMIN, pollArrUntil, startSymlinkLoop, type SymlinkLoop } from '../../support/arr-loop.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { sha256 } from '../import/support.js';
import { film } from '../../support/media/film.js';

// The whole Radarr loop against the real server, INN and Spool's own FUSE mount: Test, grab, polls, Completed,
// symlinks that read byte-exact through the mount, the arr's move and `rm -r`, removal from history; failures.
const run = promisify(execFile);
let inn: InnServer;
let loop: SymlinkLoop;

before(async () => {
  inn = await ensureInn();
  loop = await startSymlinkLoop(inn, { segment_sample_percentage: 100 });
});
after(() => loop?.stop());

interface SabReply {
  queue: { paused: boolean; slots: unknown[] };
  [key: string]: unknown;
}

test('Test passes for movies; the category folder exists where get_config says', async () => {
  const arr = loop.radarr();
  await arr.test();
  const folder = await arr.outputRootFolder();
  assert.equal(folder, join(loop.downloads, 'movies'));
  assert.ok((await stat(folder)).isDirectory());
});

test('grab -> polls -> Completed -> symlinks read byte-exact through the mount -> arr moves, rm -r, removes', async () => {
  const arr = loop.radarr();
  const data = film(1_500_000);
  const posted = await inn.postFile('movie.2024.1080p.mkv', data, { articleSize: 300_000 });
  const id = await arr.addFile('Movie.2024.1080p.WEB-DL-GRP', posted.nzbXml);
  assert.match(id, /^SABnzbd_nzo_[a-z0-9]+_\d+$/);
  const done = await pollArrUntil(arr, id, ['Completed', 'Failed']);
  assert.equal(done.status, 'Completed', done.message);
  assert.equal(done.category, 'movies');
  assert.equal(done.totalSize, data.length);
  const jobFolder = done.outputPath!;
  assert.equal(jobFolder, join(loop.downloads, 'movies', 'Movie.2024.1080p.WEB-DL-GRP'));
  const link = join(jobFolder, 'movie.2024.1080p.mkv');
  assert.ok((await lstat(link)).isSymbolicLink());
  assert.ok((await readlink(link)).startsWith(`${loop.mnt}/`), 'absolute target on the mount');
  assert.equal(sha256(await readFile(link)), sha256(data));

  const dest = join(loop.library, 'Movie (2024)');
  await mkdir(dest);
  const moved = await arrMoveInto(jobFolder, dest);
  assert.equal(moved.length, 1);
  // DeleteItemData: the arr removes the job folder recursively on its own filesystem.
  await run('rm', ['-r', jobFolder]);
  assert.equal(sha256(await readFile(moved[0]!)), sha256(data), 'content still readable after rm -r');
  assert.ok((await stat(join(loop.downloads, 'movies'))).isDirectory(), 'category folder kept');
  await arr.removeItem(id, true);
  assert.equal(
    (await arr.getItems()).find((i) => i.downloadId === id),
    undefined,
    'gone from history',
  );
  assert.equal(sha256(await readFile(moved[0]!)), sha256(data), 'content readable after the history delete');
});

test('a release with missing articles ends Failed with a reason a person understands', async () => {
  const arr = loop.radarr();
  const posted = await inn.postFile('broken.2024.mkv', film(900_000), { articleSize: 300_000 });
  const nzb = posted.nzbXml.replace(posted.messageIds[1]!, `gone-${randomBytes(6).toString('hex')}@spool.test`);
  const id = await arr.addFile('Broken.2024.1080p-GRP', nzb);
  const item = await pollArrUntil(arr, id, ['Completed', 'Failed']);
  assert.equal(item.status, 'Failed');
  assert.match(item.message ?? '', /missing/i);
  assert.match(item.message ?? '', /broken\.2024\.mkv/);
  await arr.removeItem(id, true, true);
  assert.equal(
    (await arr.getItems()).find((i) => i.downloadId === id),
    undefined,
  );
});

test('a bad NZB fails with a readable reason', async () => {
  const arr = loop.radarr();
  const id = await arr.addFile('Not.Really.An.Nzb', '<nzb><file subject="x"><segments></segments></nzb>');
  const item = await pollArrUntil(arr, id, ['Completed', 'Failed']);
  assert.equal(item.status, 'Failed');
  assert.match(item.message ?? '', /NZB/);
});

test('wrong and missing keys answer in the form the arr turns into its field errors', async () => {
  await assert.rejects(loop.radarr({ apiKey: 'wrong-key' }).test(), (e: Error) => {
    assert.ok(e instanceof ArrTestFailure);
    assert.equal(e.message, 'API Key Incorrect');
    return true;
  });
  await assert.rejects(loop.radarr({ apiKey: '', username: '', password: '' }).test(), /API Key Required/);
  await assert.rejects(
    loop.radarr({ apiKey: '', username: LOOP_ADMIN.username, password: 'nope' }).test(),
    /API Key Incorrect/,
  );
  await loop.radarr({ apiKey: '', ...LOOP_ADMIN }).test();
  // version needs no key (the arr asks it first).
  assert.match(await loop.radarr({ apiKey: 'wrong-key' }).getVersion(), /^\d+\.\d+\.\d+$/);
});

test('an unknown category is echoed byte for byte and imported under a folder of its own name', async () => {
  const arr = loop.radarr({ category: 'Films.4K' });
  await assert.rejects(arr.test(), /Category does not exist/);
  const data = film(400_000);
  const posted = await inn.postFile('uhd.mkv', data, { articleSize: 200_000 });
  const id = await arr.addFile('Uhd.Movie.2160p', posted.nzbXml);
  const item = await pollArrUntil(arr, id, ['Completed', 'Failed']);
  assert.equal(item.status, 'Completed', item.message);
  assert.equal(item.category, 'Films.4K');
  assert.equal(sha256(await readFile(join(item.outputPath!, 'uhd.mkv'))), sha256(data));
});

test('queue: limit=0 lists every waiting job with arr-parsable slots; pause and queue delete', async () => {
  const arr = loop.radarr();
  const sab = (q: string) =>
    fetch(`${loop.srv.baseUrl}/sabnzbd/api?${q}&apikey=${loop.apiKey}&output=json`).then(
      (r) => r.json() as Promise<SabReply>,
    );
  assert.deepEqual(await sab('mode=pause'), { status: true });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await arr.addFile(`Waiting.${i}`, '<nzb></nzb>'));
  const items = await arr.getItems();
  const waiting = items.filter((i) => ids.includes(i.downloadId));
  assert.equal(waiting.length, 3);
  assert.ok(waiting.every((i) => i.status === 'Paused'));
  const queue = await sab('mode=queue&start=0&limit=0&category=movies');
  assert.equal(queue.queue.paused, true);
  assert.ok(queue.queue.slots.length >= 3);
  await arr.removeItem(ids[0]!, true);
  const del = await sab(`mode=queue&name=delete&del_files=1&value=${ids[1]},${ids[2]}`);
  assert.deepEqual(del, { status: true, nzo_ids: [ids[1], ids[2]] });
  assert.deepEqual(await sab('mode=resume'), { status: true });
  assert.equal((await arr.getItems()).filter((i) => ids.includes(i.downloadId)).length, 0);
});
