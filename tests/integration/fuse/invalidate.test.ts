import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { innProvider } from '../../support/inn/provider.js';
import { addPosted, davUrl } from '../webdav/support.js';
import { film } from '../../support/media/film.js';

// Issue 21: with a long dir_cache_time (the kernel's entry timeout) and attr_timeout, a file removed, moved or
// replaced in the tree must not stay visible through the real mount: the app invalidates the kernel's cache.
let inn: InnServer;
let srv: TestServer;
let mnt: string;
const files: Record<string, { path: string; size: number }> = {};

before(async () => {
  inn = await ensureInn();
  mnt = tempMountPoint('spool-mnt-inval-');
  srv = await startServer({
    config: {
      auth: { login_required: false },
      mount_path: mnt,
      rclone: { dir_cache_time: '1h', attr_timeout: '1h' },
      providers: [innProvider(inn, { max_connections: 2 })],
    },
  });
  const sizes = { gone: 100_001, away: 100_002, old: 100_003, new: 200_004 };
  for (const [name, size] of Object.entries(sizes)) {
    const posted = await inn.postFile(`${name}.mkv`, film(size), { articleSize: 60_000 });
    const [path] = (await addPosted(srv, 'movies', `Job.${name}`, [posted])) as [string];
    files[name] = { path, size };
  }
  const started = await fetch(`${srv.baseUrl}/api/rclone/mount/start`, { method: 'POST' });
  assert.equal(started.status, 200, await started.text());
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

// Async fs only: this process answers the mount's requests.
const onMount = (p: string) => join(mnt, p);
const dav = (method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(davUrl(srv, path), { method, headers });
const gone = (p: string) => assert.rejects(stat(onMount(p)), { code: 'ENOENT' }, `${p} still visible on the mount`);

test('a file deleted through the API is gone from the mount at once', async () => {
  const f = files.gone as { path: string; size: number };
  assert.equal((await stat(onMount(f.path))).size, f.size);
  assert.equal((await dav('DELETE', f.path)).status, 204);
  await gone(f.path);
});

test('a file moved through the API is gone from its old path and found at the new one', async () => {
  const f = files.away as { path: string; size: number };
  assert.equal((await stat(onMount(f.path))).size, f.size);
  const to = f.path.replace(/away\.mkv$/, 'moved.mkv');
  const moved = await dav('MOVE', f.path, { Destination: davUrl(srv, to) });
  assert.equal(moved.status, 201);
  await gone(f.path);
  assert.equal((await stat(onMount(to))).size, f.size);
});

test('a file replaced by another one shows the new size and bytes at once', async () => {
  const older = files.old as { path: string; size: number };
  const newer = files.new as { path: string; size: number };
  assert.equal((await stat(onMount(older.path))).size, older.size);
  const moved = await dav('MOVE', newer.path, { Destination: davUrl(srv, older.path), Overwrite: 'T' });
  assert.equal(moved.status, 204);
  assert.equal((await stat(onMount(older.path))).size, newer.size);
  assert.equal((await readFile(onMount(older.path))).length, newer.size);
});
