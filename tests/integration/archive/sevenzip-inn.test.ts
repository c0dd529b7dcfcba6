import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import { davGet, davList, importServerOverInn, sha256 } from '../import/support.js';
import { davRange, importNzb, POSTER, rangesAround, sevenZip, withPassword } from './support.js';
import { film } from '../../support/media/film.js';

// 7z archives written by Debian's 7-Zip (7zz): copy method (-mx0, its header still LZMA-compressed), split into
// .7z.001 ... volumes, posted to a real INN, imported and read back byte-exact through WebDAV.
const dir = mkdtempSync(join(tmpdir(), 'spool-7z-'));

const env = importServerOverInn();
after(() => rmSync(dir, { recursive: true, force: true }));

async function post(pieces: { name: string; bytes: Buffer }[], articleSize = 90_000): Promise<PostedFile[]> {
  const out: PostedFile[] = [];
  for (const p of pieces) out.push(await env.inn.postFile(p.name, p.bytes, { articleSize }));
  return out;
}

test('7z copy method split into .7z.001 pieces: several files, listed out of order, byte-exact', async () => {
  const movie = film(1_100_000);
  const subs = randomBytes(20_000);
  const pieces = sevenZip(dir, 'Seven.Movie', { 'Seven.Movie.mkv': movie, 'Subs/en.srt': subs }, ['-mx0', '-v400k']);
  assert.ok(pieces.length >= 3, pieces.map((p) => p.name).join());
  const posted = await post(pieces);
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Seven.Movie.nzb', posted.reverse());
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const target = item.target_path!;
  assert.deepEqual((await davList(env.srv.baseUrl, target)).sort(), ['Seven.Movie.mkv', 'Subs']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${target}/Seven.Movie.mkv`)).body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${target}/Subs/en.srt`)).body, subs);
  for (const [a, b] of rangesAround(movie.length, [400 * 1024 - 40, 800 * 1024 - 40])) {
    assert.deepEqual(await davRange(env.srv.baseUrl, `${target}/Seven.Movie.mkv`, a, b), movie.subarray(a, b));
  }
});

test('a compressed 7z fails with ARCHIVE_COMPRESSED; a 7z missing its last piece fails naming the cause', async () => {
  const packed = sevenZip(dir, 'Packed7', { 'x.mkv': Buffer.alloc(200_000, 7) }, ['-mx5']);
  const failed = await importNzb(env.srv.baseUrl, env.inn, 'Packed7.nzb', await post(packed));
  assert.equal(failed.status, 'failed');
  assert.match(failed.error_message!, /^compressed archive: cannot be streamed/);
  assert.equal(failed.error_code, 'ARCHIVE_COMPRESSED');

  const split = sevenZip(dir, 'Cut7', { 'y.mkv': film(500_000) }, ['-mx0', '-v200k']);
  const cut = await importNzb(env.srv.baseUrl, env.inn, 'Cut7.nzb', await post(split.slice(0, -1)));
  assert.equal(cut.status, 'failed');
  assert.equal(cut.error_code, 'ARCHIVE_VOLUME_MISSING', cut.error_message ?? '');
});

test('7z AES-256 (-mx0 -p): decrypted on the fly with the NZB password; a wrong one fails by the CRC check', async () => {
  const movie = film(700_000 + 5);
  const nfo = Buffer.from('seven secrets');
  const pieces = sevenZip(dir, 'Seven.Aes', { 'Seven.Aes.mkv': movie, 'Seven.Aes.nfo': nfo }, [
    '-mx0',
    '-pseven pass',
    '-v300k',
  ]);
  const xml = buildNzb(await post(pieces), env.inn.group, POSTER);
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Seven.Aes.nzb', [], {}, withPassword(xml, 'seven pass'));
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const target = item.target_path!;
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${target}/Seven.Aes.mkv`)).body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${target}/Seven.Aes.nfo`)).body, nfo);
  for (const [a, b] of rangesAround(movie.length, [16, 32, 300 * 1024, 600 * 1024], 8)) {
    assert.deepEqual(await davRange(env.srv.baseUrl, `${target}/Seven.Aes.mkv`, a, b), movie.subarray(a, b));
  }
  const wrong = await importNzb(env.srv.baseUrl, env.inn, 'Seven.Aes.2.nzb', [], {}, withPassword(xml, 'not it'));
  assert.equal(wrong.status, 'failed');
  assert.equal(wrong.error_code, 'ARCHIVE_PASSWORD_WRONG', wrong.error_message ?? '');
});

test('7z with encrypted headers (-mhe): read with the NZB password; missing and wrong passwords fail clearly', async () => {
  const movie = film(500_000 + 9);
  const nfo = Buffer.from('hidden names');
  const pieces = sevenZip(dir, 'Seven.Mhe', { 'Hidden.Name.mkv': movie, 'Hidden.Name.nfo': nfo }, [
    '-mx0',
    '-mhe=on',
    '-phidden pass',
    '-v200k',
  ]);
  assert.ok(pieces.length >= 3);
  const xml = buildNzb(await post(pieces), env.inn.group, POSTER);
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Seven.Mhe.nzb', [], {}, withPassword(xml, 'hidden pass'));
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const target = item.target_path!;
  assert.deepEqual((await davList(env.srv.baseUrl, target)).sort(), ['Hidden.Name.mkv', 'Hidden.Name.nfo']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${target}/Hidden.Name.mkv`)).body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${target}/Hidden.Name.nfo`)).body, nfo);
  for (const [a, b] of rangesAround(movie.length, [16, 200 * 1024 - 40, 400 * 1024 - 40], 6)) {
    assert.deepEqual(await davRange(env.srv.baseUrl, `${target}/Hidden.Name.mkv`, a, b), movie.subarray(a, b));
  }
  const missing = await importNzb(env.srv.baseUrl, env.inn, 'Seven.Mhe.2.nzb', [], {}, xml);
  assert.equal(missing.status, 'failed');
  assert.equal(missing.error_code, 'ARCHIVE_PASSWORD_MISSING', missing.error_message ?? '');
  assert.match(missing.error_message!, /the headers of .*\.7z.* are encrypted and no password was given/);
  const wrong = await importNzb(env.srv.baseUrl, env.inn, 'Seven.Mhe.3.nzb', [], {}, withPassword(xml, 'not it'));
  assert.equal(wrong.status, 'failed');
  assert.equal(wrong.error_code, 'ARCHIVE_PASSWORD_WRONG', wrong.error_message ?? '');
});
