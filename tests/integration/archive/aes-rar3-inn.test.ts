import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeRar4 } from '../../support/archive/rar4-writer.js';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import { buildNzb } from '../../support/inn/poster.js';
import { davGet, davList, importServerOverInn, sha256, waitForItem } from '../import/support.js';
import { davRange, importNzb, POSTER, postVolumes, rangesAround, withPassword } from './support.js';
import { film } from '../../support/media/film.js';

// RAR 3.x AES-128 members (our RAR 4 writer; its key derivation is checked against a file RAR itself encrypted in
// writers.test.ts) and the configured password list (import.archive_passwords), against a real INN, read back
// byte-exact through WebDAV with ranges at AES block and volume edges.

const env = importServerOverInn();

async function setPasswords(list: string[] | null): Promise<Record<string, unknown>> {
  const config = list === null ? { archive_passwords: [], archive_passwords_set: false } : { archive_passwords: list };
  const res = await fetch(`${env.srv.baseUrl}/api/config/import`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ section: 'import', config }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { data: { config: { import: Record<string, unknown> } } }).data.config.import;
}

test('RAR 3 AES over .rar/.r00 volumes, password from the NZB: byte-exact, ranges at block and volume edges', async () => {
  const movie = film(500_007);
  const nfo = Buffer.from('rar three notes\n');
  const vols = writeRar4(
    [
      { name: 'Three.Movie.mkv', data: movie },
      { name: 'Three.Movie.nfo', data: nfo },
    ],
    { volumeSize: 150_000, base: 'three', scheme: 'old', password: 'drei ünï' },
  );
  assert.ok(vols.length >= 4);
  const posted = await postVolumes(env.inn, vols, { articleSize: 64_000 });
  const xml = buildNzb(posted.reverse(), env.inn.group, POSTER);
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Three.nzb', [], {}, withPassword(xml, 'drei ünï'));
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const dir = item.target_path!;
  assert.deepEqual((await davList(env.srv.baseUrl, dir)).sort(), ['Three.Movie.mkv', 'Three.Movie.nfo']);
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${dir}/Three.Movie.mkv`)).body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${dir}/Three.Movie.nfo`)).body, nfo);
  // stored pieces are whole blocks of about 150,000 - headers; the article edges are every 64,000 volume bytes
  const edges = [16, 32, 64_000 - 100, 149_900, 150_000, 299_800, 449_700, 500_000];
  const blockEdges = edges.flatMap((e) => [e - (e % 16), e - (e % 16) + 15]);
  for (const [a, b] of rangesAround(movie.length, [...edges, ...blockEdges], 16)) {
    assert.deepEqual(
      await davRange(env.srv.baseUrl, `${dir}/Three.Movie.mkv`, a, b),
      movie.subarray(a, b),
      `${a}-${b}`,
    );
  }
  const wrong = await importNzb(env.srv.baseUrl, env.inn, 'Three.2.nzb', [], {}, withPassword(xml, 'vier'));
  assert.equal(wrong.status, 'failed');
  assert.equal(wrong.error_code, 'ARCHIVE_PASSWORD_WRONG', wrong.error_message ?? '');
});

test('import.archive_passwords: write-only, tried after the item password; the check picks the right one', async () => {
  const shown = await setPasswords(['first-wrong', 'conf-right', 'rar5-right']);
  assert.equal(shown.archive_passwords_count, 3);
  assert.equal(shown.archive_passwords_set, true);
  assert.ok(!('archive_passwords' in shown));
  const got = await (await fetch(`${env.srv.baseUrl}/api/config`)).json();
  assert.ok(!JSON.stringify(got).includes('conf-right'), 'GET /api/config never shows the passwords');

  // RAR 3: no check value; each member's CRC or its first block (Matroska signature) picks 'conf-right'
  const movie = film(300_001);
  const sub = Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nhello\n');
  const r3 = writeRar4(
    [
      { name: 'Conf.Movie.mkv', data: movie },
      { name: 'Conf.Movie.srt', data: sub },
    ],
    { volumeSize: 120_000, base: 'conf', password: 'conf-right' },
  );
  const record = await env.srv.app().importer.queue.enqueue({
    nzb: Buffer.from(buildNzb(await postVolumes(env.inn, r3), env.inn.group, POSTER)),
    nzbPath: 'Conf.Movie.nzb',
    password: 'sab-wrong',
  });
  const item = await waitForItem(env.srv.baseUrl, record.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Conf.Movie.mkv`)).body), sha256(movie));
  assert.deepEqual((await davGet(env.srv.baseUrl, `${item.target_path}/Conf.Movie.srt`)).body, sub);

  // RAR5: the password check value rejects the item's and the first two configured ones without reading data
  const secret = film(90_000);
  const r5 = writeRar5([{ name: 'Conf.Five.mkv', data: secret }], { base: 'c5', password: 'rar5-right', kdfLog2: 10 });
  const five = await importNzb(env.srv.baseUrl, env.inn, 'Conf.Five.nzb', await postVolumes(env.inn, r5));
  assert.equal(five.status, 'completed', five.error_message ?? '');
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${five.target_path}/Conf.Five.mkv`)).body), sha256(secret));

  // cleared: the same archive now fails for want of a password
  const cleared = await setPasswords(null);
  assert.equal(cleared.archive_passwords_count, 0);
  const none = await importNzb(env.srv.baseUrl, env.inn, 'Conf.Five.2.nzb', await postVolumes(env.inn, r5));
  assert.equal(none.status, 'failed');
  assert.equal(none.error_code, 'ARCHIVE_PASSWORD_MISSING', none.error_message ?? '');
});

test('RAR 3 with encrypted headers (-hp), obfuscated names: read with the NZB password, refused without', async () => {
  const movie = film(260_000);
  const vols = writeRar4([{ name: 'Hidden.Three.mkv', data: movie }], {
    volumeSize: 100_000,
    base: 'h3',
    password: 'hp three',
    encryptHeaders: true,
  });
  // obfuscated names: the order comes from the encrypted end blocks' volume numbers
  const xml = buildNzb(await postVolumes(env.inn, vols, { obfuscate: true }), env.inn.group, POSTER);
  const item = await importNzb(env.srv.baseUrl, env.inn, 'Hidden.Three.nzb', [], {}, withPassword(xml, 'hp three'));
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path!), ['Hidden.Three.mkv']);
  const path = `${item.target_path}/Hidden.Three.mkv`;
  assert.equal(sha256((await davGet(env.srv.baseUrl, path)).body), sha256(movie));
  for (const [a, b] of rangesAround(movie.length, [16, 99_900, 199_800], 6)) {
    assert.deepEqual(await davRange(env.srv.baseUrl, path, a, b), movie.subarray(a, b), `${a}-${b}`);
  }
  const refused = await importNzb(env.srv.baseUrl, env.inn, 'Hidden.Three.2.nzb', [], {}, xml);
  assert.equal(refused.status, 'failed');
  assert.equal(refused.error_code, 'ARCHIVE_PASSWORD_MISSING', refused.error_message ?? '');
  assert.match(refused.error_message!, /the headers of .* are encrypted and no password was given/);
  const wrong = await importNzb(env.srv.baseUrl, env.inn, 'Hidden.Three.3.nzb', [], {}, withPassword(xml, 'nope'));
  assert.equal(wrong.status, 'failed');
  assert.equal(wrong.error_code, 'ARCHIVE_PASSWORD_WRONG', wrong.error_message ?? '');
});
