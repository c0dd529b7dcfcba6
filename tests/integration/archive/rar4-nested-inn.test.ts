import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { writeRar4 } from '../../support/archive/rar4-writer.js';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import { materialize } from '../../support/archive/volumes.js';
import { davGet, davList, importServerOverInn, sha256 } from '../import/support.js';
import { davRange, importNzb, postVolumes, rangesAround } from './support.js';
import { film } from '../../support/media/film.js';

// RAR 4 sets (both namings, obfuscated names ordered by their end blocks) and archives inside archives, posted to
// a real INN and read back byte-exact through WebDAV.

// Every extension (the proof picture of the first test is a .jpg, not in the default list).
const env = importServerOverInn({
  import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100, allowed_file_extensions: [] },
});

test('RAR 4 old naming (.rar, .r00, ...) listed in reverse: every member byte-exact, ranges across volumes', async () => {
  const movie = film(800_000);
  const proof = randomBytes(3_000);
  const vols = writeRar4(
    [
      { name: 'Old.Movie.mkv', data: movie },
      { name: 'Proof\\old.proof.jpg', data: proof },
    ],
    { volumeSize: 150_000, scheme: 'old', base: 'old.movie' },
  );
  assert.equal(vols[1]!.name, 'old.movie.r00');
  const posted = await postVolumes(env.inn, vols, { articleSize: 70_000 });
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Old.Movie.nzb', posted.reverse());
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const dir = item.target_path!;
  assert.deepEqual((await davList(env.srv.baseUrl, dir)).sort(), ['Old.Movie.mkv', 'Proof']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${dir}/Old.Movie.mkv`)).body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${dir}/Proof/old.proof.jpg`)).body, proof);
  const joins = Array.from({ length: 6 }, (_, i) => (i + 1) * 149_900);
  for (const [a, b] of rangesAround(movie.length, joins)) {
    assert.deepEqual(await davRange(env.srv.baseUrl, `${dir}/Old.Movie.mkv`, a, b), movie.subarray(a, b));
  }
});

test('RAR 4 .partN.rar under obfuscated names: ordered by the volume numbers of the end blocks', async () => {
  const movie = film(500_000);
  const vols = writeRar4([{ name: 'Hidden.mkv', data: movie }], { volumeSize: 120_000, base: 'hidden' });
  const posted = await postVolumes(env.inn, vols, { obfuscate: true, articleSize: 50_000 });
  const item = await importNzb(
    env.srv.baseUrl,
    env.inn,
    'Hidden.nzb',
    [...posted].sort(() => Math.random() - 0.5),
  );
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path!), ['Hidden.mkv']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Hidden.mkv`)).body), sha256(movie));
});

test('a stored RAR 4 inside a stored RAR5 resolves to the innermost media file', async () => {
  const movie = film(400_000);
  const inner = writeRar4([{ name: 'Inner.Movie.mkv', data: movie }], { base: 'inner' });
  const outer = writeRar5([{ name: 'inner.rar', data: materialize(inner[0]!) }], {
    volumeSize: 150_000,
    base: 'outer',
  });
  const item = await importNzb(
    env.srv.baseUrl,
    env.inn,
    'Nested.nzb',
    await postVolumes(env.inn, outer, { articleSize: 64_000 }),
  );
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path!), ['Inner.Movie.mkv']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Inner.Movie.mkv`)).body), sha256(movie));
  for (const [a, b] of rangesAround(movie.length, [149_900, 299_800], 6)) {
    assert.deepEqual(
      await davRange(env.srv.baseUrl, `${item.target_path}/Inner.Movie.mkv`, a, b),
      movie.subarray(a, b),
    );
  }
});

test('archives nested in a loop fail the import with a clear reason', async () => {
  let payload = materialize(writeRar5([{ name: 'm.mkv', data: film(1000) }], { base: 'l0' })[0]!);
  for (let i = 1; i <= 5; i++)
    payload = materialize(writeRar5([{ name: `l${i}.rar`, data: payload }], { base: `l${i}` })[0]!);
  const vols = writeRar5([{ name: 'top.rar', data: payload }], { base: 'top' });
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Loop.nzb', await postVolumes(env.inn, vols));
  assert.equal(item.status, 'failed');
  assert.match(item.error_message!, /nested more than 4 deep/);
});
