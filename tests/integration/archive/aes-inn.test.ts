import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import { buildNzb } from '../../support/inn/poster.js';
import { davGet, davList, importServerOverInn, sha256, waitForItem } from '../import/support.js';
import { davRange, importNzb, POSTER, postVolumes, rangesAround, withPassword } from './support.js';
import { film } from '../../support/media/film.js';

// RAR5 AES-256 members (PBKDF2-HMAC-SHA256 key, password check value), written by our test writer and checked by
// unar in writers.test.ts, posted to a real INN and decrypted on the fly through WebDAV with random access.

const env = importServerOverInn();

const importXml = (name: string, xml: string) => importNzb(env.srv.baseUrl, env.inn, name, [], {}, xml);

test('RAR5 AES over several volumes, password from the NZB: byte-exact, ranges at block and volume edges', async () => {
  const movie = film(700_003);
  const nfo = Buffer.from('encrypted notes');
  const vols = writeRar5(
    [
      { name: 'Secret.Movie.mkv', data: movie },
      { name: 'Secret.Movie.nfo', data: nfo },
    ],
    { volumeSize: 200_000, base: 'secret', password: 'hunter2 ünï', kdfLog2: 12 },
  );
  const posted = await postVolumes(env.inn, vols, { articleSize: 64_000 });
  const item = await importXml('Secret.nzb', withPassword(buildNzb(posted, env.inn.group, POSTER), 'hunter2 ünï'));
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const dir = item.target_path!;
  assert.deepEqual((await davList(env.srv.baseUrl, dir)).sort(), ['Secret.Movie.mkv', 'Secret.Movie.nfo']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${dir}/Secret.Movie.mkv`)).body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${dir}/Secret.Movie.nfo`)).body, nfo);
  const edges = [16, 32, 64_000 - 100, 64_000, 199_900, 200_000, 399_808, 599_712, 700_000];
  const blockEdges = edges.flatMap((e) => [e - (e % 16), e - (e % 16) + 15]);
  for (const [a, b] of rangesAround(movie.length, [...edges, ...blockEdges], 16)) {
    assert.deepEqual(
      await davRange(env.srv.baseUrl, `${dir}/Secret.Movie.mkv`, a, b),
      movie.subarray(a, b),
      `${a}-${b}`,
    );
  }
});

test('the password given with the queue item (SABnzbd password) opens the archive', async () => {
  const movie = film(150_000);
  const vols = writeRar5([{ name: 'Queue.Pass.mkv', data: movie }], { base: 'qp', password: 'from-sab', kdfLog2: 10 });
  const xml = buildNzb(await postVolumes(env.inn, vols), env.inn.group, POSTER);
  const record = await env.srv
    .app()
    .importer.queue.enqueue({ nzb: Buffer.from(xml), nzbPath: 'Queue.Pass.nzb', password: 'from-sab' });
  const item = await waitForItem(env.srv.baseUrl, record.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Queue.Pass.mkv`)).body), sha256(movie));
});

test('a wrong or missing password fails the import with exactly that reason', async () => {
  const vols = writeRar5([{ name: 'Locked.mkv', data: film(50_000) }], {
    base: 'locked',
    password: 'right',
    kdfLog2: 10,
  });
  const xml = buildNzb(await postVolumes(env.inn, vols), env.inn.group, POSTER);
  const wrong = await importXml('Locked.nzb', withPassword(xml, 'wrong'));
  assert.equal(wrong.status, 'failed');
  assert.equal(wrong.error_code, 'ARCHIVE_PASSWORD_WRONG');
  assert.match(wrong.error_message!, /wrong password for encrypted archive member Locked\.mkv/);
  const missing = await importXml('Locked2.nzb', xml);
  assert.equal(missing.status, 'failed');
  assert.equal(missing.error_code, 'ARCHIVE_PASSWORD_MISSING');
  assert.match(missing.error_message!, /Locked\.mkv is encrypted and no password was given/);
});

test('RAR5 with encrypted headers: read with the NZB password, refused clearly without one', async () => {
  const movie = film(300_000);
  const vols = writeRar5([{ name: 'Hidden.Headers.mkv', data: movie }], {
    base: 'hh',
    volumeSize: 120_000,
    password: 'hp-pass',
    kdfLog2: 10,
    encryptHeaders: true,
  });
  const xml = buildNzb(await postVolumes(env.inn, vols, { obfuscate: true }), env.inn.group, POSTER);
  const item = await importXml('Hidden.Headers.nzb', withPassword(xml, 'hp-pass'));
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path!), ['Hidden.Headers.mkv']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Hidden.Headers.mkv`)).body), sha256(movie));
  const refused = await importXml('Hidden.Headers.2.nzb', xml);
  assert.equal(refused.status, 'failed');
  assert.equal(refused.error_code, 'ARCHIVE_PASSWORD_MISSING');
  assert.match(
    refused.error_message!,
    /the headers of .* are encrypted and no password was given|is encrypted and no password was given/,
  );
});
