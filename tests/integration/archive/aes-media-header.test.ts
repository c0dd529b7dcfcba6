import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { writeRar4 } from '../../support/archive/rar4-writer.js';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import type { WrittenVolume } from '../../support/archive/volumes.js';
import { buildNzb } from '../../support/inn/poster.js';
import { film } from '../../support/media/film.js';
import { davGet, importServerOverInn, sha256 } from '../import/support.js';
import { importNzb, POSTER, postVolumes, withPassword } from './support.js';

// The check of media headers (import.verify_media_headers, on by default; docs/import.md, "Content checks") on a
// member of an encrypted archive: it reads the member's first bytes decrypted. Its ciphertext is random bytes, so
// a film that imports, and an executable refused as one, can only come from the decrypted head.

const env = importServerOverInn({ import: { verify_media_headers: true } });

async function importSealed(name: string, vols: WrittenVolume[], password: string) {
  const xml = buildNzb(await postVolumes(env.inn, vols, { articleSize: 64_000 }), env.inn.group, POSTER);
  return importNzb(env.srv.baseUrl, env.inn, name, [], {}, withPassword(xml, password));
}

const EXE = Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1');

for (const [kind, write] of [
  [
    'RAR5 AES-256',
    (data: Buffer, name: string, base: string) =>
      writeRar5([{ name, data }], { base, volumeSize: 100_000, password: 'seal', kdfLog2: 10 }),
  ],
  [
    'RAR 3 AES-128',
    (data: Buffer, name: string, base: string) =>
      writeRar4([{ name, data }], { base, volumeSize: 100_000, password: 'seal' }),
  ],
] as const) {
  test(`${kind}: a film imports (its decrypted head is Matroska); an executable named .mkv is refused`, async () => {
    const tag = kind.startsWith('RAR5') ? 'R5' : 'R3';
    const movie = film(250_000, 'Sealed.Movie.mkv');
    const good = await importSealed(`Sealed.${tag}.nzb`, write(movie, `Sealed.${tag}.Movie.mkv`, `s${tag}`), 'seal');
    assert.equal(good.status, 'completed', good.error_message ?? '');
    const got = await davGet(env.srv.baseUrl, `${good.target_path}/Sealed.${tag}.Movie.mkv`);
    assert.equal(sha256(got.body), sha256(movie));

    const exe = Buffer.concat([EXE, randomBytes(120_000)]);
    const bad = await importSealed(`Fake.${tag}.nzb`, write(exe, `Fake.${tag}.Movie.mkv`, `f${tag}`), 'seal');
    assert.equal(bad.status, 'failed');
    assert.equal(bad.error_code, 'CONTENT_MISMATCH');
    assert.equal(
      bad.error_message,
      `Fake.${tag}.Movie.mkv: content does not match .mkv (found a Windows executable (MZ))`,
    );
  });
}
