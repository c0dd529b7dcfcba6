import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { startServer, type TestServer } from '../../support/server.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { HUNG_RUN_MS } from '../../support/wait.js';

// `ls -l` of a folder through Spool's own FUSE mount: every entry's size, type and mode come with the listing
// (readdirplus, appliance/fuse/native/src/mount.c op_readdir), so the kernel asks no getattr per entry.
const run = promisify(execFile);
const FILES = 40;
let srv: TestServer;
let mnt: string;

before(async () => {
  mnt = tempMountPoint('spool-rdplus-');
  srv = await startServer({
    config: { auth: { login_required: false }, mount_path: mnt, rclone: { mount_enabled: true, uid: 0, gid: 0 } },
  });
  const files = Array.from({ length: FILES }, (_, i) => {
    const size = 1000 * i + 7; // each size its own, so a swapped attribute shows
    return { name: `Episode.${String(i).padStart(2, '0')}.mkv`, size, layout: layoutOf(size) };
  });
  await srv.app().streaming.vfs.addJob({ category: 'tv', jobName: 'Show.S01', files });
  await srv.app().streaming.vfs.mkdir('/complete/tv/Show.S01/Extras');
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${srv.baseUrl}/api/rclone/mount/status`);
    if (((await res.json()) as { data: { mounted: boolean } }).data.mounted) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the mount did not come up');
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

function layoutOf(size: number) {
  return { size, segments: [{ messageId: `rdplus-${size}@test`, start: 0, end: size }] };
}

test('ls -l lists every size, type and mode from the listing itself, without a getattr per entry', async () => {
  const vfs = srv.app().streaming.vfs;
  const stat = vfs.stat.bind(vfs);
  let stats = 0;
  vfs.stat = (path: string) => {
    stats++;
    return stat(path);
  };
  let stdout: string;
  try {
    ({ stdout } = await run('ls', ['-ln', join(mnt, 'complete/tv/Show.S01')], { timeout: HUNG_RUN_MS }));
  } finally {
    vfs.stat = stat;
  }
  const rows = stdout
    .trim()
    .split('\n')
    .slice(1) // "total N"
    .map((l) => l.split(/\s+/))
    .map((f) => ({ mode: f[0], size: Number(f[4]), name: f[f.length - 1] }));
  const expected = [
    ...Array.from({ length: FILES }, (_, i) => ({
      mode: '-rw-rw-r--',
      size: 1000 * i + 7,
      name: `Episode.${String(i).padStart(2, '0')}.mkv`,
    })),
    { mode: 'drwxrwxr-x', size: 0, name: 'Extras' },
  ];
  assert.deepEqual(rows, expected);
  // the lookups of the folder's own path (complete, tv, Show.S01) only; one per entry would be 41 more
  assert.ok(stats < 10, `${stats} getattr calls for an ls -l of ${FILES + 1} entries`);
});
