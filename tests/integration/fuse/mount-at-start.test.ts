import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startChildServer, type ChildServer } from '../../support/child-server.js';
import { isMounted } from '../../../appliance/fuse/mount.service.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { innProvider, upload, waitForItem } from '../import/support.js';
import { sha256 } from '../webdav/support.js';
import { film } from '../../support/media/film.js';
import { HUNG_RUN_MS, waitUntil } from '../../support/wait.js';

// rclone.mount_enabled: the real process (main.ts, a child) mounts on boot, unmounts on SIGTERM, and after a
// kill -9 left a dead mount behind, the next start detaches it and mounts again.
const run = promisify(execFile);
let inn: InnServer;
let file: Buffer;
let nzbXml: string;
let mnt: string;
let dataDir: string;
const children: ChildServer[] = [];

before(async () => {
  inn = await ensureInn();
  file = film(2 * 1024 * 1024 + 4321);
  nzbXml = (await inn.postFile('boot.mount.mkv', file, { articleSize: 250_000 })).nzbXml;
  mnt = tempMountPoint('spool-boot-mnt-');
  dataDir = mkdtempSync(join(tmpdir(), 'spool-boot-data-'));
});
after(async () => {
  for (const c of children) await c.kill();
  await removeMountPoint(mnt);
  rmSync(dataDir, { recursive: true, force: true });
});

async function boot(): Promise<ChildServer> {
  const srv = await startChildServer({
    dataDir,
    config: {
      auth: { login_required: false },
      mount_path: mnt,
      rclone: { mount_enabled: true },
      providers: [innProvider(inn, { max_connections: 4 })],
      import: { queue_processing_interval_seconds: 1 },
    },
  });
  children.push(srv);
  return srv;
}

/** Polls the mount status API (bounded): the mount comes up just after the HTTP port. */
async function mountedStatus(srv: ChildServer): Promise<{ mounted: boolean; mount_point: string; error: string }> {
  let status = { mounted: false, mount_point: '', error: '' };
  for (let i = 0; i < 100 && !status.mounted; i++) {
    const res = await fetch(`${srv.baseUrl}/api/rclone/mount/status`);
    status = ((await res.json()) as { data: typeof status }).data;
    if (!status.mounted) await new Promise((r) => setTimeout(r, 100));
  }
  return status;
}

/** sha256 of a file read by another process (`sha256sum`), as a media player on the host would read it. */
async function sumThroughMount(virtualPath: string): Promise<string> {
  const { stdout } = await run('sha256sum', [join(mnt, virtualPath)], { timeout: HUNG_RUN_MS });
  return stdout.split(' ')[0] as string;
}

let virtualFile = '';

test('mount_enabled: the app mounts at start; an imported file reads byte-exact through it; SIGTERM unmounts', async () => {
  const srv = await boot();
  assert.deepEqual(await mountedStatus(srv), { mounted: true, mount_point: mnt, error: '' });
  assert.ok(isMounted(mnt));
  const queued = await upload(srv.baseUrl, 'Boot.Mount.2024.nzb', nzbXml, { category: 'movies' });
  assert.equal(queued.status, 200, JSON.stringify(queued.body));
  const item = await waitForItem(srv.baseUrl, queued.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  virtualFile = `${item.target_path}/boot.mount.mkv`;
  assert.equal(await sumThroughMount(virtualFile), sha256(file));
  assert.equal(await srv.stop(), 0);
  assert.equal(isMounted(mnt), false, 'the mount point is clean after a graceful stop');
});

test('a kill -9 leaves a dead mount; the next start detaches it and mounts again', async () => {
  const crashed = await boot();
  assert.equal((await mountedStatus(crashed)).mounted, true);
  await crashed.kill();
  assert.equal(isMounted(mnt), true, 'the crash left the mount behind');
  await assert.rejects(run('ls', [mnt]), /not connected/i, 'a dead mount answers ENOTCONN');

  const next = await boot();
  assert.deepEqual(await mountedStatus(next), { mounted: true, mount_point: mnt, error: '' });
  assert.match(next.output(), /detaching a stale mount/);
  assert.equal(await sumThroughMount(virtualFile), sha256(file));
  assert.equal(await next.stop(), 0);
  assert.equal(isMounted(mnt), false);
});

test('a mount that cannot start is reported and the app still serves', async () => {
  const blocker = join(dataDir, 'a-file');
  writeFileSync(blocker, 'x');
  const srv = await startChildServer({
    config: { auth: { login_required: false }, mount_path: join(blocker, 'mnt'), rclone: { mount_enabled: true } },
  });
  children.push(srv);
  try {
    let status = { mounted: true, error: '' };
    await waitUntil('the mount status to name the failure', async () => {
      status = ((await (await fetch(`${srv.baseUrl}/api/rclone/mount/status`)).json()) as { data: typeof status }).data;
      return status.error !== '';
    });
    assert.equal(status.mounted, false);
    assert.match(status.error, /ENOTDIR|not a directory/i);
    assert.match(srv.output(), /mount at start failed/);
    assert.equal((await fetch(`${srv.baseUrl}/ping`)).status, 200);
    assert.equal(await srv.stop(), 0);
  } finally {
    srv.removeDataDir();
  }
});
