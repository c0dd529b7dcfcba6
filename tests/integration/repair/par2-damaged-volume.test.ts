import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import type { PostedFile } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { checkAndWait } from '../health/support.js';
import { davGet, startImportServer, type TestServer } from '../import/support.js';
import {
  ARTICLE,
  importRelease,
  postRelease,
  repairTestConfig,
  ROOT,
  SLICE,
  waitForRecord,
  type Par2Record,
  type Release,
} from './support.js';

// Takedowns remove articles of every file of a post, the PAR2 volumes included (docs/par2.md "Recovery slices in
// damaged volumes"). A release made by Debian's `par2 create` with one recovery volume; articles of the film AND of
// that volume cancelled in the real INN. Spool's repair uses every recovery packet the missing articles did not
// touch, as `par2 repair` does on the same files with the same bytes zeroed.
let inn: InnServer;
let radarr: FakeArr;
let srv: TestServer;

before(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  srv = await startImportServer(inn, repairTestConfig(inn, radarr));
});
after(async () => {
  await srv?.stop();
  await radarr?.close();
});

const PACKET = 64 + 4 + SLICE;

/** The recovery volume: the one .par2 file par2 made besides the index. */
function volumeOf(release: Release): { name: string; bytes: Buffer; posted: PostedFile } {
  const name = [...release.par2Bytes.keys()].find((n) => /\.vol\d+\+\d+\.par2$/.test(n))!;
  return { name, bytes: release.par2Bytes.get(name)!, posted: release.par2.find((p) => p.name === name)! };
}

/** Offsets of the recovery packets in a volume, walked by their lengths (the volume as par2 wrote it). */
function recoveryPackets(volume: Buffer): number[] {
  const out: number[] = [];
  for (let at = 0; at < volume.length; at += Number(volume.readBigUInt64LE(at + 8)))
    if (volume.toString('latin1', at + 48, at + 64) === 'PAR 2.0\0RecvSlic') out.push(at);
  return out;
}

/** Recovery packets that no cancelled article of the volume touches. */
function intactPackets(volume: Buffer, goneArticles: number[]): number {
  return recoveryPackets(volume).filter((at) => {
    const first = Math.floor(at / ARTICLE);
    const last = Math.floor((at + PACKET - 1) / ARTICLE);
    return !goneArticles.some((a) => a >= first && a <= last);
  }).length;
}

/** Zeroes articles `gone` of `bytes` (what a downloader writes for a missing article). */
function zeroed(bytes: Buffer, gone: number[]): Buffer {
  const copy = Buffer.from(bytes);
  for (const a of gone) copy.fill(0, a * ARTICLE, Math.min(copy.length, (a + 1) * ARTICLE));
  return copy;
}

/** `par2 repair` on the same damage: answers the repaired film's bytes, or null when par2 could not repair. */
function par2cmdline(release: Release, film: string, filmGone: number[], volumeGone: number[]): Buffer | null {
  const dir = mkdtempSync(join(tmpdir(), 'spool-par2-cmdline-'));
  try {
    writeFileSync(join(dir, film), zeroed(release.bytes, filmGone));
    const volume = volumeOf(release);
    for (const [name, bytes] of release.par2Bytes)
      writeFileSync(join(dir, name), name === volume.name ? zeroed(bytes, volumeGone) : bytes);
    try {
      execFileSync('par2', ['repair', '-q', '-q', `${film}.par2`], { cwd: dir, stdio: 'ignore' });
    } catch {
      return null;
    }
    return readFileSync(join(dir, film));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('film and recovery volume both lost articles: the intact recovery packets repair it byte-exact, as par2 repair does', async () => {
  // 400,000 bytes: 20 articles, 80 slices; -r20 -n1: 16 recovery slices in one volume of about 5 articles
  const release = await postRelease(inn, 'Takedown.Film.2021.mkv', 400_000, 20, false, undefined, ['-n1']);
  const volume = volumeOf(release);
  const filmGone = [4, 11]; // 8 slices
  const volumeGone = [1]; // the packets it touches are lost
  const intact = intactPackets(volume.bytes, volumeGone);
  assert.ok(intact >= 8 && intact < 16, `${intact} of 16 recovery packets intact: enough, and some lost`);
  const expected = par2cmdline(release, 'Takedown.Film.2021.mkv', filmGone, volumeGone);
  assert.ok(expected?.equals(release.bytes), 'par2 repair rebuilds the same damage byte-exact');

  const { path } = await importRelease(srv.baseUrl, release, 'Takedown.Film.2021', 'Takedown.Film.2021.mkv');
  const movie = radarr.addMovie({ title: 'Takedown Film' });
  radarr.addMovieFile(movie.id, { path: `${ROOT}${path}` });
  cancelArticles(inn, [
    ...filmGone.map((a) => release.media.messageIds[a]!),
    ...volumeGone.map((a) => volume.posted.messageIds[a]!),
  ]);
  await checkAndWait(srv.baseUrl, path);
  const r = await waitForRecord<Par2Record>(
    srv.baseUrl,
    path,
    (x) => x.repaired_from === 'par2' || x.status === 'repair_triggered',
  );
  assert.equal(r.repaired_from, 'par2', JSON.stringify(r));
  assert.equal(r.status, 'healthy');
  assert.deepEqual(radarr.callLines(), [], 'no arr is asked');
  const dav = await davGet(srv.baseUrl, path);
  assert.equal(dav.status, 200);
  assert.ok(dav.body.equals(release.bytes), 'WebDAV reads the repaired film byte-exact');
});

test('more damage than the intact packets cover: the reason counts the slices found and the ones lost', async () => {
  const release = await postRelease(inn, 'Gone.Film.2020.mkv', 400_000, 20, false, undefined, ['-n1']);
  const volume = volumeOf(release);
  const filmGone = [0, 5, 9, 14]; // 16 slices
  const volumeGone = [2];
  const intact = intactPackets(volume.bytes, volumeGone);
  assert.ok(intact < 16, `${intact} intact`);
  assert.equal(par2cmdline(release, 'Gone.Film.2020.mkv', filmGone, volumeGone), null, 'par2 repair cannot either');

  const { path } = await importRelease(srv.baseUrl, release, 'Gone.Film.2020', 'Gone.Film.2020.mkv');
  const movie = radarr.addMovie({ title: 'Gone Film' });
  radarr.addMovieFile(movie.id, { path: `${ROOT}${path}` });
  cancelArticles(inn, [
    ...filmGone.map((a) => release.media.messageIds[a]!),
    ...volumeGone.map((a) => volume.posted.messageIds[a]!),
  ]);
  await checkAndWait(srv.baseUrl, path);
  const r = await waitForRecord<Par2Record>(srv.baseUrl, path, (x) => x.status === 'repair_triggered');
  const counts = /cannot repair: 16 slices missing, (\d+) recovery slices found, (\d+) lost with their articles/.exec(
    r.error_details ?? '',
  );
  assert.ok(counts, r.error_details ?? '');
  assert.equal(Number(counts[1]), intact, 'every intact recovery packet was found');
  assert.ok(Number(counts[1]) + Number(counts[2]) >= 16, `found ${counts[1]} + lost ${counts[2]} account for 16`);
});
