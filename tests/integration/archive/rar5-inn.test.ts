import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import { api, davGet, davList, importServerOverInn, sha256 } from '../import/support.js';
import { davRange, importNzb, postVolumes, rangesAround } from './support.js';
import { film } from '../../support/media/film.js';

// RAR5 store archives written from the technote (tests/support/archive), posted to a real INN, imported by the
// real server and read back byte-exact through WebDAV, ranges across volume boundaries included.

const env = importServerOverInn();

/** Where each volume's data of a member begins, in member bytes: the ranges across volume boundaries. */
function boundaries(sizes: number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const s of sizes) out.push((at += s));
  return out;
}

test('a single-volume RAR5: the job shows the stored files, not the volume, byte-exact', async () => {
  const movie = film(1_300_000);
  const nfo = Buffer.from('release notes\n');
  const vols = writeRar5(
    [
      { name: 'Single.Movie.2024.mkv', data: movie },
      { name: 'Single.Movie.2024.nfo', data: nfo },
    ],
    { base: 'single.movie' },
  );
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Single.Movie.2024.nzb', await postVolumes(env.inn, vols), {
    category: 'movies',
  });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual((await davList(env.srv.baseUrl, item.target_path!)).sort(), [
    'Single.Movie.2024.mkv',
    'Single.Movie.2024.nfo',
  ]);
  const got = await davGet(env.srv.baseUrl, `${item.target_path}/Single.Movie.2024.mkv`);
  assert.equal(sha256(got.body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${item.target_path}/Single.Movie.2024.nfo`)).body, nfo);
  for (const [a, b] of rangesAround(movie.length, [100_000 - 60, 200_000 - 60])) {
    assert.deepEqual(
      await davRange(env.srv.baseUrl, `${item.target_path}/Single.Movie.2024.mkv`, a, b),
      movie.subarray(a, b),
    );
  }
});

test('multi-volume .partNN.rar under obfuscated names, listed out of order: order from the headers', async () => {
  const one = film(900_000);
  const sample = randomBytes(5_000);
  const two = film(700_000);
  const vols = writeRar5(
    [
      { name: 'Show.S01E01.mkv', data: one },
      { name: 'Sample/show.sample.mkv', data: sample },
      { name: 'Show.S01E02 – ünïcode.mkv', data: two },
    ],
    { volumeSize: 250_000, base: 'show.s01' },
  );
  assert.ok(vols.length >= 6);
  const posted = await postVolumes(env.inn, vols, { obfuscate: true, articleSize: 60_000 });
  const shuffled = [...posted].sort(() => Math.random() - 0.5);
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Show.S01.nzb', shuffled, { category: 'tv' });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const dir = item.target_path!;
  // The sample member is left out (import.filter_sample_files, on by default).
  assert.deepEqual((await davList(env.srv.baseUrl, dir)).sort(), ['Show.S01E01.mkv', 'Show.S01E02 – ünïcode.mkv']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${dir}/Show.S01E01.mkv`)).body), sha256(one));
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${dir}/Show.S01E02 – ünïcode.mkv`)).body), sha256(two));
  assert.equal((await davGet(env.srv.baseUrl, `${dir}/Sample/show.sample.mkv`)).status, 404);
  // the data of Show.S01E01.mkv in each volume is a little under 250,000 bytes: ranges around those joins
  const info = await api<{ segments: { start_offset: number; end_offset: number }[] }>(
    env.srv.baseUrl,
    `/api/files/info?path=${encodeURIComponent(`${dir}/Show.S01E01.mkv`)}`,
  );
  const segs = info.body.data!.segments;
  const joins = boundaries(segs.map((s) => s.end_offset - s.start_offset + 1));
  for (const [a, b] of rangesAround(one.length, joins)) {
    assert.deepEqual(await davRange(env.srv.baseUrl, `${dir}/Show.S01E01.mkv`, a, b), one.subarray(a, b));
  }
});

test('a compressed RAR fails with its own code; a volume missing from the NZB fails naming it', async () => {
  const packed = writeRar5([{ name: 'x.mkv', data: film(50_000) }], { method: 3, base: 'packed' });
  const failed = await importNzb(env.srv.baseUrl, env.inn, 'Packed.nzb', await postVolumes(env.inn, packed));
  assert.equal(failed.status, 'failed');
  assert.match(failed.error_message!, /^compressed archive: cannot be streamed/);
  assert.equal(failed.error_code, 'ARCHIVE_COMPRESSED');

  const vols = writeRar5([{ name: 'gap.mkv', data: film(600_000) }], { volumeSize: 200_000, base: 'gap' });
  const posted = await postVolumes(env.inn, vols);
  const gap = await importNzb(env.srv.baseUrl, env.inn, 'Gap.nzb', [posted[0]!, ...posted.slice(2)]);
  assert.equal(gap.status, 'failed');
  assert.match(gap.error_message!, /volume 2 of the archive is not in the NZB/);
  assert.equal(gap.error_code, 'ARCHIVE_VOLUME_MISSING');
});
