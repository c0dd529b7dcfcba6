import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyName } from './classify.js';
import type { VirtualFile } from './grouping.js';
import { nameObfuscatedAfterJob } from './job-naming.js';
import { extensionFromMagic } from './magic.js';

const HEX = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const ebml = (docType: string) =>
  Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x80 | docType.length]),
    Buffer.from(docType),
    Buffer.alloc(200),
  ]);
const file = (name: string, parts: number[], obfuscated = true): VirtualFile => ({
  name,
  kind: classifyName(name),
  parts,
  nameSource: 'yenc',
  obfuscated,
});

test('extensions from magic bytes: Matroska, WebM, MP4, AVI, transport streams, archives; unknown stays empty', () => {
  assert.equal(extensionFromMagic(ebml('matroska')), 'mkv');
  assert.equal(extensionFromMagic(ebml('webm')), 'webm');
  assert.equal(extensionFromMagic(Buffer.from('\0\0\0\x20ftypisom\0\0\0\0', 'latin1')), 'mp4');
  assert.equal(extensionFromMagic(Buffer.from('RIFF\0\0\0\0AVI LIST', 'latin1')), 'avi');
  const ts = Buffer.alloc(188 * 6);
  for (let k = 0; k < 6; k++) ts[k * 188] = 0x47;
  assert.equal(extensionFromMagic(ts), 'ts');
  assert.equal(extensionFromMagic(Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1')), 'rar');
  assert.equal(extensionFromMagic(Buffer.from('just some text, nothing known')), '');
});

test('a fully obfuscated release without PAR2 is named after the job, the largest file first', () => {
  const files = [
    file(`${HEX}`, [0]),
    file('b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4', [1]),
    file('Sample.Real.Name.nfo', [2], false),
  ];
  const heads = [ebml('matroska'), ebml('matroska'), Buffer.from('text')];
  const sizes = [1_000, 9_000_000, 10];
  nameObfuscatedAfterJob(files, {
    jobName: 'Some.Movie.2024.1080p',
    headOf: (f) => heads[f.parts[0]!],
    sizeOf: (f) => sizes[f.parts[0]!]!,
  });
  assert.deepEqual(
    files.map((f) => f.name),
    ['Some.Movie.2024.1080p (2).mkv', 'Some.Movie.2024.1080p.mkv', 'Sample.Real.Name.nfo'],
  );
  assert.equal(files[1]!.kind, 'media');
  assert.equal(files[1]!.nameSource, 'job');
});

test('a random job name leaves random file names alone; a known own extension is kept', () => {
  const files = [file(`${HEX}`, [0])];
  nameObfuscatedAfterJob(files, { jobName: HEX, headOf: () => ebml('matroska'), sizeOf: () => 1 });
  assert.equal(files[0]!.name, HEX);
  const withExt = [file(`${HEX}.mp4`, [0])];
  nameObfuscatedAfterJob(withExt, { jobName: 'Show.S01E01', headOf: () => ebml('matroska'), sizeOf: () => 1 });
  assert.equal(withExt[0]!.name, 'Show.S01E01.mp4');
});

test('obfuscated archive volumes keep their names (the archive reader orders them by their headers)', () => {
  const files = [file(HEX, [0]), file('b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4', [1])];
  const rar = Buffer.from('Rar!\x1a\x07\x00\x00', 'latin1');
  nameObfuscatedAfterJob(files, { jobName: 'Hidden', headOf: () => rar, sizeOf: () => 1 });
  assert.deepEqual(
    files.map((f) => f.name),
    [HEX, 'b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4'],
  );
});
