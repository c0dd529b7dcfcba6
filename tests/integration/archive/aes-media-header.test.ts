import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeRar4 } from '../../support/archive/rar4-writer.js';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import type { WrittenVolume } from '../../support/archive/volumes.js';
import { buildNzb } from '../../support/inn/poster.js';
import { film } from '../../support/media/film.js';
import { davGet, importServerOverInn, sha256 } from '../import/support.js';
import { importNzb, POSTER, postVolumes, sevenZip, withPassword } from './support.js';

// The check of media headers (import.verify_media_headers, on by default; docs/import.md, "Content checks") on a
// member of an encrypted archive: it reads the member's first bytes decrypted. Its ciphertext is random bytes, so
// a film that imports, and an executable refused as one, can only come from the decrypted head. RAR sets come from
// our writers (checked against unar in writers.test.ts), 7z sets from Debian's 7-Zip (7zz). The check runs at its
// default: nothing here turns it on.

const env = importServerOverInn();
const dir = mkdtempSync(join(tmpdir(), 'spool-7z-header-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function importSealed(name: string, vols: WrittenVolume[], password: string) {
  const xml = buildNzb(await postVolumes(env.inn, vols, { articleSize: 64_000 }), env.inn.group, POSTER);
  return importNzb(env.srv.baseUrl, env.inn, name, [], {}, withPassword(xml, password));
}

/** 7zz's pieces as the volumes postVolumes posts. */
const asVolumes = (pieces: { name: string; bytes: Buffer }[]): WrittenVolume[] =>
  pieces.map((p) => ({ name: p.name, size: p.bytes.length, chunks: [{ offset: 0, bytes: p.bytes }] }));

const TAGS: Record<string, string> = {
  'RAR5 AES-256': 'R5',
  'RAR 3 AES-128': 'R3',
  '7z AES-256': 'S7',
  '7z AES-256 with encrypted headers': 'S7H',
};

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
  [
    '7z AES-256',
    (data: Buffer, name: string, base: string) =>
      asVolumes(sevenZip(dir, base, { [name]: data }, ['-mx0', '-pseal', '-v100k'])),
  ],
  [
    '7z AES-256 with encrypted headers',
    (data: Buffer, name: string, base: string) =>
      asVolumes(sevenZip(dir, base, { [name]: data }, ['-mx0', '-mhe=on', '-pseal', '-v100k'])),
  ],
] as const) {
  test(`${kind}: a film imports (its decrypted head is Matroska); an executable named .mkv is refused`, async () => {
    const tag = TAGS[kind];
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
