import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { checkAndWait } from '../health/support.js';
import { api, davGet, startImportServer, type TestServer } from '../import/support.js';
import { importRelease, postRelease, waitForRecord, type Par2Record, repairTestConfig, ROOT } from './support.js';

// PAR2 repair end to end (docs/health.md "PAR2 repair"): releases with recovery data made by Debian's par2, posted
// to the real INN, imported; articles cancelled in INN afterwards; a health check finds them missing and the repair
// rebuilds them from PAR2 (no arr asked), or, with more damage than the recovery data covers, the arr repair runs.
let inn: InnServer;
let radarr: FakeArr;
let srv: TestServer;
let mnt: string;

type Record = Par2Record;

before(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  mnt = tempMountPoint('spool-par2-mnt-');
  srv = await startImportServer(inn, repairTestConfig(inn, radarr, { mount_path: mnt }));
});
after(async () => {
  await srv?.stop();
  await radarr?.close();
  await removeMountPoint(mnt);
});

const patchFiles = () => readdirSync(join(srv.dataDir, 'patches'));

/** Reads a whole file through the FUSE mount (async fs: this process serves the mount). */
async function readMounted(path: string): Promise<Buffer> {
  const fh = await open(join(mnt, path), 'r');
  try {
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

test('an obfuscated release with -r10 recovery: missing articles rebuilt from PAR2, read byte-exact, no arr call', async () => {
  const release = await postRelease(inn, 'Par2.Film.2022.mkv', 400_000, 10, true);
  const { path } = await importRelease(srv.baseUrl, release, 'Par2.Film.2022', 'Par2.Film.2022.mkv');
  const movie = radarr.addMovie({ title: 'Par2 Film' });
  radarr.addMovieFile(movie.id, { path: `${ROOT}${path}` });
  // Two articles of the middle (8 slices of 5,000 bytes); the set has 8 recovery slices: just covered.
  assert.ok(release.recoverySlices >= 8, `recovery slices: ${release.recoverySlices}`);
  const gone = [release.media.messageIds[4]!, release.media.messageIds[11]!];
  cancelArticles(inn, gone);
  assert.ok(await readFails(path), 'before the repair the read fails');
  await checkAndWait(srv.baseUrl, path);
  const r = await waitForRecord<Record>(srv.baseUrl, path, (x) => x.repaired_from === 'par2');
  assert.equal(r.status, 'healthy');
  assert.deepEqual(r.missing_ranges, []);
  assert.deepEqual(radarr.callLines(), [], 'no arr is asked');
  const dav = await davGet(srv.baseUrl, path);
  assert.equal(dav.status, 200);
  assert.ok(dav.body.equals(release.bytes), 'WebDAV reads the repaired file byte-exact');
  const started = await api(srv.baseUrl, '/api/rclone/mount/start', { method: 'POST' });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  assert.ok((await readMounted(path)).equals(release.bytes), 'FUSE reads the repaired file byte-exact');
  // A later check finds the same articles missing in INN, but they read whole from the patches: still repaired.
  const again = await checkAndWait(srv.baseUrl, path);
  assert.equal(again.status, 'healthy');
  assert.equal((again as Record).repaired_from, 'par2');
  assert.deepEqual(radarr.callLines(), []);
  // Deleting the file drops its patches, on disk too.
  assert.equal(patchFiles().length, 1);
  const del = await fetch(`${srv.baseUrl}/webdav${path}`, { method: 'DELETE' });
  assert.equal(del.status, 204);
  await waitFor(() => patchFiles().length === 0);
});

test('a -r5 release with more damage than its recovery data covers goes to the arr as before', async () => {
  const release = await postRelease(inn, 'Short.Film.2023.mkv', 400_000, 5);
  const { path } = await importRelease(srv.baseUrl, release, 'Short.Film.2023', 'Short.Film.2023.mkv');
  const movie = radarr.addMovie({ title: 'Short Film' });
  const file = radarr.addMovieFile(movie.id, { path: `${ROOT}${path}` });
  // The first article and two more: 12 slices missing, 4 recovery slices.
  assert.ok(release.recoverySlices < 12, `recovery slices: ${release.recoverySlices}`);
  const ids = release.media.messageIds;
  cancelArticles(inn, [ids[0]!, ids[6]!, ids[13]!]);
  await checkAndWait(srv.baseUrl, path);
  const r = await waitForRecord<Record>(srv.baseUrl, path, (x) => x.status === 'repair_triggered');
  assert.equal(r.repaired_from, null);
  assert.match(
    r.error_details ?? '',
    /PAR2 repair not possible: .*cannot repair: 12 slices missing, \d+ recovery slices/,
  );
  assert.ok(radarr.callLines().includes(`DELETE moviefile/${file.id}`), radarr.callLines().join(', '));
  assert.ok(await readFails(path), 'no patch: the read still fails');
});

test('a -r5 release with one article gone (four slices, four recovery slices) is repaired', async () => {
  const release = await postRelease(inn, 'Exact.Film.2024.mkv', 400_000, 5);
  const { path } = await importRelease(srv.baseUrl, release, 'Exact.Film.2024', 'Exact.Film.2024.mkv');
  cancelArticles(inn, [release.media.messageIds[1]!]);
  await checkAndWait(srv.baseUrl, path);
  const r = await waitForRecord<Record>(
    srv.baseUrl,
    path,
    (x) => x.repaired_from === 'par2' || /PAR2 repair/.test(x.error_details ?? ''),
  );
  assert.equal(r.repaired_from, 'par2', JSON.stringify(r));
  const dav = await davGet(srv.baseUrl, path);
  assert.ok(dav.body.equals(release.bytes));
});

test('hostile PAR2 packets (a length past the end) refuse the repair with the reason; the arr repair follows', async () => {
  // Every .par2 file's first packet claims 2^40 bytes: the strict reader refuses it (docs/par2.md "Refusals").
  const hostile = (_: string, bytes: Buffer) => {
    const copy = Buffer.from(bytes);
    copy.writeBigUInt64LE(2n ** 40n, 8);
    return copy;
  };
  const release = await postRelease(inn, 'Hostile.Film.2025.mkv', 400_000, 10, false, hostile);
  const { path } = await importRelease(srv.baseUrl, release, 'Hostile.Film.2025', 'Hostile.Film.2025.mkv');
  const movie = radarr.addMovie({ title: 'Hostile Film' });
  const file = radarr.addMovieFile(movie.id, { path: `${ROOT}${path}` });
  cancelArticles(inn, [release.media.messageIds[0]!]);
  await checkAndWait(srv.baseUrl, path);
  const r = await waitForRecord<Record>(srv.baseUrl, path, (x) => x.status === 'repair_triggered');
  assert.match(r.error_details ?? '', /PAR2 repair not possible: PAR2: .*past the end/);
  assert.ok(radarr.callLines().includes(`DELETE moviefile/${file.id}`), radarr.callLines().join(', '));
});

/** A whole-file WebDAV GET fails: 502 before the first byte, or the connection cut after it. */
async function readFails(path: string): Promise<boolean> {
  try {
    return (await davGet(srv.baseUrl, path)).status === 502;
  } catch {
    return true;
  }
}

/** Waits for `ok` (a wait that never ends fails with the test's timeout: no shorter bound on a busy machine). */
async function waitFor(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 50));
}
