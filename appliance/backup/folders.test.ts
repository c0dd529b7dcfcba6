import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { PATCH_FOLDER } from '../repair/repair.storage.js';
import { SIDECAR_FOLDER } from '../vfs/tree.storage.js';
import { createBackup, isFolderFile, type FileFolder } from './backup.service.js';
import { RestoreRefused } from './manifest.js';
import { stageArchive } from './stage.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spool-folders-'));
  dirs.push(dir);
  return dir;
}

test("a folder's files are its committed ones: no write in progress, no path, no other folder", () => {
  const folders = [PATCH_FOLDER, SIDECAR_FOLDER];
  assert.equal(isFolderFile('patches/3f2a.bin', folders), true);
  assert.equal(isFolderFile('sidecars/0a1b-2c3d', folders), true);
  for (const name of ['patches/3f2a.tmp', 'patches/.bin', 'patches/a/b.bin', 'sidecars/x.tmp', 'other/a.bin', 'a.bin'])
    assert.equal(isFolderFile(name, folders), false, name);
});

/** A store's copy as a snapshot gives it (its bytes are the store check's business, not the staging's). */
async function snapshot(scratch: string) {
  writeFileSync(join(scratch, 'data.mdb'), 'store');
  return [{ name: 'db/data.mdb', path: join(scratch, 'data.mdb') }];
}

/** An archive whose patches folder holds `files`, written with a rule that lets every name through. */
async function archiveWith(files: string[]): Promise<string> {
  const dir = tempDir();
  const patches = join(dir, 'patches');
  mkdirSync(patches);
  for (const f of files) writeFileSync(join(patches, f), f);
  writeFileSync(join(dir, 'config.yaml'), 'log: {}\n');
  const anyName: FileFolder = { name: 'patches', dir: patches, file: /./ };
  const file = join(dir, 'b.tar');
  await createBackup(
    {
      store: 'lmdb',
      snapshot,
      configPath: join(dir, 'config.yaml'),
      folders: [anyName],
      spoolVersion: '0.0.1',
    },
    { file },
  );
  return file;
}

test('a backup writes only the committed files of a folder, and a restore stages them', async () => {
  const dir = tempDir();
  const patches = join(dir, 'patches');
  mkdirSync(patches);
  writeFileSync(join(patches, 'a.bin'), 'blob');
  writeFileSync(join(patches, 'b.tmp'), 'in progress');
  writeFileSync(join(dir, 'config.yaml'), 'log: {}\n');
  const file = join(dir, 'b.tar');
  const folders = [{ ...PATCH_FOLDER, dir: patches }];
  const manifest = await createBackup(
    { store: 'lmdb', snapshot, configPath: join(dir, 'config.yaml'), folders, spoolVersion: '0.0.1' },
    { file },
  );
  assert.deepEqual(
    manifest.entries.map((e) => e.name),
    ['db/data.mdb', 'config.yaml', 'patches/a.bin'],
  );
  const staged = join(tempDir(), 'staged');
  await stageArchive(file, staged, '0.0.1', folders);
  assert.equal(readFileSync(join(staged, 'patches', 'a.bin'), 'utf8'), 'blob');
});

test('an archive holding a file no storage module keeps is refused, and nothing is staged', async () => {
  for (const name of ['c.tmp', 'notes.txt']) {
    const archive = await archiveWith(['a.bin', name]);
    const staged = join(tempDir(), 'staged');
    await assert.rejects(
      stageArchive(archive, staged, '0.0.1', [PATCH_FOLDER, SIDECAR_FOLDER]),
      (err: Error) => err instanceof RestoreRefused && err.message.includes(`entry patches/${name} is not expected`),
    );
  }
  const archive = await archiveWith(['a.bin']);
  await assert.rejects(stageArchive(archive, join(tempDir(), 'staged'), '0.0.1', [SIDECAR_FOLDER]), /not expected/);
});
