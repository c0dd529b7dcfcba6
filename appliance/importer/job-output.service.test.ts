import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { lstat, mkdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { memoryLogger } from '../logging/logger.js';
import { JobOutputService, type ImportStrategy, type OutputSettings } from './job-output.service.js';

const root = mkdtempSync(join(tmpdir(), 'spool-output-'));
after(() => rmSync(root, { recursive: true, force: true }));

function service(strategy: ImportStrategy, name: string) {
  const settings: OutputSettings = {
    strategy,
    importDir: join(root, name, 'downloads'),
    mountPath: join(root, name, 'mnt'),
    vfsCompleteDir: '/complete',
    strm: { baseUrl: 'http://spool:8080', user: 'dav', password: 'p@ss word' },
  };
  return { out: new JobOutputService(() => settings, memoryLogger()), settings };
}

const files = ['/complete/tv/Show.S01E01/show.mkv', '/complete/tv/Show.S01E01/Subs/en.srt'];

test('symlink: one absolute link per file under <import_dir>/<category>/<job>, targets on the mount', async () => {
  const { out, settings } = service('symlink', 'a');
  assert.equal(out.completeRoot(), settings.importDir);
  const storage = await out.publish('/complete/tv/Show.S01E01', files);
  assert.equal(storage, join(settings.importDir, 'tv', 'Show.S01E01'));
  assert.equal(await readlink(join(storage, 'show.mkv')), join(settings.mountPath, files[0]!));
  assert.equal(await readlink(join(storage, 'Subs', 'en.srt')), join(settings.mountPath, files[1]!));
  // Not readable until the mount serves the target.
  assert.equal(await out.readable(storage), false);
  await mkdir(join(settings.mountPath, '/complete/tv/Show.S01E01'), { recursive: true });
  await writeFile(join(settings.mountPath, files[0]!), 'video');
  assert.equal(await out.readable(storage), false, 'one link still dangles');
  await mkdir(join(settings.mountPath, '/complete/tv/Show.S01E01/Subs'));
  await writeFile(join(settings.mountPath, files[1]!), 'subs');
  assert.equal(await out.readable(storage), true);
  // A second publish (a re-run) replaces the folder, it does not add to it.
  const again = await out.publish('/complete/tv/Show.S01E01', [files[0]!]);
  assert.equal(again, storage);
  await assert.rejects(lstat(join(storage, 'Subs')));
});

test('removeFolder unlinks links only: content behind them stays, category folders and outside paths are refused', async () => {
  const { out, settings } = service('symlink', 'b');
  await out.ensureCategoryFolders(['tv', 'movies']);
  assert.ok((await stat(join(settings.importDir, 'movies'))).isDirectory());
  const storage = await out.publish('/complete/tv/Show.S01E01', [files[0]!]);
  await mkdir(join(settings.mountPath, '/complete/tv/Show.S01E01'), { recursive: true });
  await writeFile(join(settings.mountPath, files[0]!), 'video');
  await out.removeFolder(join(settings.importDir, 'tv'));
  await out.removeFolder(settings.mountPath);
  await out.removeFolder('/');
  assert.ok((await stat(join(settings.importDir, 'tv'))).isDirectory(), 'category folder kept');
  assert.ok((await stat(storage)).isDirectory(), 'refused paths leave the job alone');
  await out.removeFolder(storage);
  await assert.rejects(lstat(storage));
  assert.equal(await readFile(join(settings.mountPath, files[0]!), 'utf8'), 'video');
});

test('strm: .strm files hold the WebDAV URL with the webdav credentials, each segment encoded', async () => {
  const { out, settings } = service('strm', 'c');
  const storage = await out.publish('/complete/tv/Show #1', ['/complete/tv/Show #1/ep 1.mkv']);
  assert.equal(storage, join(settings.importDir, 'tv', 'Show #1'));
  assert.equal(
    await readFile(join(storage, 'ep 1.mkv.strm'), 'utf8'),
    'http://dav:p%40ss%20word@spool:8080/webdav/complete/tv/Show%20%231/ep%201.mkv\n',
  );
});

test('none: storage is the job folder on the mount, and nothing is written or removed locally', async () => {
  const { out, settings } = service('none', 'd');
  assert.equal(out.completeRoot(), join(settings.mountPath, 'complete'));
  const storage = await out.publish('/complete/tv/Show.S01E01', files);
  assert.equal(storage, join(settings.mountPath, 'complete/tv/Show.S01E01'));
  await assert.rejects(lstat(settings.importDir));
  await mkdir(storage, { recursive: true });
  await out.removeFolder(storage);
  assert.ok((await stat(storage)).isDirectory());
});
