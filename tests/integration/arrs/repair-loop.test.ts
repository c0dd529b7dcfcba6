/**
 * Repair end to end on the real server: a release the arr grabbed through Spool's SABnzbd API is imported from
 * INN with the symlink strategy and served by Spool's FUSE mount; the (fake) Radarr moves the symlink into its
 * library as the real one does; then app.repair.arr.repairFile, given the virtual path and the nzo_id, finds that
 * record through the grab and the link, lowers its revision, blocklists the grab and searches: the record and its
 * link stay (docs/arrs.md "Continuity"). The other movie's record and link stay, the content stays readable.
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { arrMoveInto, pollArrUntil, startSymlinkLoop, type SymlinkLoop } from '../../support/arr-loop.js';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { sha256 } from '../import/support.js';
import type { ArrRepairOutcome } from '../../../appliance/repair/index.js';
import { film } from '../../support/media/film.js';

let inn: InnServer;
let radarr: FakeArr;
let loop: SymlinkLoop;

before(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  loop = await startSymlinkLoop(
    inn,
    {},
    {
      arrs: {
        enabled: true,
        radarr_instances: [{ name: 'Movies', type: 'radarr', url: radarr.url, api_key: radarr.apiKey }],
      },
    },
  );
});

after(async () => {
  await loop?.stop();
  await radarr?.close();
});

/** Grab through the SABnzbd API, wait for Completed, then move the links into the library as the arr does. */
async function grabAndImport(title: string, fileName: string, data: Buffer): Promise<{ id: string; links: string[] }> {
  const arr = loop.radarr();
  const posted = await inn.postFile(fileName, data, { articleSize: 200_000 });
  const id = await arr.addFile(title, posted.nzbXml);
  const item = await pollArrUntil(arr, id, ['Completed', 'Failed']);
  assert.equal(item.status, 'Completed', item.message);
  const dest = join(loop.library, title);
  await mkdir(dest);
  const links = await arrMoveInto(item.outputPath!, dest);
  return { id, links };
}

test('the grabbed, imported and moved file is repaired through its grab; nothing else is touched', async () => {
  const data = film(600_000);
  const ours = await grabAndImport('Film.2024.1080p-GRP', 'film.2024.mkv', data);
  const other = await grabAndImport('Other.2023.720p-GRP', 'other.2023.mkv', film(300_000));
  assert.equal(ours.links.length, 1);

  const filmRecord = radarr.addMovie({ title: 'Film', path: join(loop.library, 'Film.2024.1080p-GRP') });
  const filmFile = radarr.addMovieFile(filmRecord.id, { path: ours.links[0]!, sceneName: 'Film.2024.1080p-GRP' });
  const grab = radarr.addGrab({ downloadId: ours.id, movieId: filmRecord.id, sourceTitle: 'Film.2024.1080p-GRP' });
  const otherMovie = radarr.addMovie({ title: 'Other' });
  const otherFile = radarr.addMovieFile(otherMovie.id, { path: other.links[0]! });
  radarr.addGrab({ downloadId: other.id, movieId: otherMovie.id });

  // What the health domain passes: the virtual path of the broken file (the link's target minus the mount).
  const target = await readlink(ours.links[0]!);
  assert.ok(target.startsWith(`${loop.mnt}/`));
  const virtualPath = target.slice(loop.mnt.length);
  const outcome = (await loop.srv
    .app()
    .repair.arr.repairFile({ path: virtualPath, downloadId: ours.id })) as ArrRepairOutcome;
  assert.ok(outcome.kind === 'triggered' && outcome.route === 'replace', JSON.stringify(outcome));
  assert.equal(outcome.fileId, filmFile.id);
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
  assert.deepEqual(
    radarr.lib.blocklist.map((b) => b.downloadId),
    [ours.id],
  );
  assert.deepEqual(
    radarr.lib.commands.map((c) => c.body),
    [{ name: 'MoviesSearch', movieIds: [filmRecord.id] }],
  );
  // The arr keeps its link and record (revision lowered) until the replacement comes; the other movie is as it was.
  assert.ok((await lstat(ours.links[0]!)).isSymbolicLink());
  assert.equal(sha256(await readFile(target)), sha256(data));
  assert.deepEqual([...radarr.lib.movieFiles.keys()], [filmFile.id, otherFile.id]);
  assert.equal(radarr.lib.movieFiles.get(filmFile.id)!.quality!.revision.version, 0);
  assert.ok((await lstat(other.links[0]!)).isSymbolicLink());
  assert.deepEqual(radarr.unexpected, []);
});
