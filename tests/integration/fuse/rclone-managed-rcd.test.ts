import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { freePort } from '../../support/free-port.js';
import type { TestServer } from '../../support/server.js';
import { isMounted } from '../../../appliance/fuse/mount.service.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { rcCall } from '../../support/rclone/rc-call.js';
import { addPosted, sha256 } from '../webdav/support.js';
import { startServerForRclone } from './support.js';
import { film } from '../../support/media/film.js';
import { HUNG_RUN_MS } from '../../support/wait.js';

// rc_enabled with no rc_url and nothing on rc_port: Spool starts `rclone rcd` itself (loopback, auth from the
// environment), with cache_dir as --cache-dir, mounts through it, and stops it with the mount.
const run = promisify(execFile);
const RC_USER = 'rc-user';
const RC_PASS = 'rc-managed-pass';
let inn: InnServer;
let srv: TestServer;
let mnt: string;
let cacheDir: string;
let rcPort = 0;
let file: Buffer;
let filePath: string;

/** The rcd Spool started, on the port it was given. */
const rc = <T = Record<string, unknown>>(command: string, params: Record<string, unknown> = {}) =>
  rcCall<T>({ url: `http://127.0.0.1:${rcPort}`, user: RC_USER, pass: RC_PASS }, command, params);

before(async () => {
  inn = await ensureInn();
  file = film(2 * 1024 * 1024 + 99);
  const posted = await inn.postFile('managed.mkv', file, { articleSize: 300_000 });
  mnt = tempMountPoint('spool-rcd-mnt-');
  cacheDir = join(mkdtempSync(join(tmpdir(), 'spool-rcd-')), 'cache');
  rcPort = await freePort();
  srv = await startServerForRclone(inn, mnt);
  [filePath] = (await addPosted(srv, 'movies', 'Managed.2024', [posted])) as [string];
  await srv.app().config.patchSection('rclone', {
    rc_enabled: true,
    rc_url: '',
    rc_port: rcPort,
    rc_user: RC_USER,
    rc_pass: RC_PASS,
    cache_dir: cacheDir,
    syslog: true,
    log_level: 'INFO',
    mount_options: { webdav_url: `${srv.baseUrl}/webdav/` },
  });
});

after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
  rmSync(join(cacheDir, '..'), { recursive: true, force: true });
});

test('Spool starts its own rcd with cache_dir, mounts through it, reads byte-exact, and stops it on unmount', async () => {
  await srv.app().streaming.mount.start();
  assert.deepEqual(await srv.app().streaming.mount.status(), { mounted: true, mount_point: mnt, error: '' });
  const { pid } = await rc<{ pid: number }>('core/pid');
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  assert.ok(argv.includes(`--cache-dir=${cacheDir}`), argv.join(' '));
  assert.ok(argv.includes(`--rc-addr=127.0.0.1:${rcPort}`), argv.join(' '));
  assert.ok(!argv.join(' ').includes(RC_PASS), 'the RC password is not on the command line');
  // No /dev/log on this host: --syslog would make rclone exit, so it is left out and said so.
  if (!existsSync('/dev/log')) {
    assert.ok(!argv.includes('--syslog'));
    assert.ok(srv.logs.some((l) => l.includes('this host has no /dev/log')));
  }

  const { stdout } = await run('sha256sum', [join(mnt, filePath)], { timeout: HUNG_RUN_MS });
  assert.equal(stdout.split(' ')[0], sha256(file));
  const stats = await rc<{ diskCache?: { path: string } }>('vfs/stats');
  assert.ok(stats.diskCache?.path.startsWith(join(cacheDir, 'vfs') + '/'), JSON.stringify(stats.diskCache));
  assert.ok(!srv.logs.some((l) => l.includes('did not apply') && l.includes('cache_dir')), 'cache_dir applied');
  // rclone's own log lines reach Spool's log.
  assert.ok(
    srv.logs.some((l) => l.includes('"scope":"test.fuse.rcd"')),
    'rcd output in the log',
  );

  await srv.app().streaming.mount.stop();
  assert.equal(isMounted(mnt), false);
  assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the rcd Spool started is gone');
  assert.equal((await srv.app().streaming.mount.status()).mounted, false);
});

test('an rcd that cannot start (its port taken by something else) fails the mount with rclone’s reason', async () => {
  const squatter = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  try {
    await srv.app().config.patchSection('rclone', { rc_port: (squatter.address() as net.AddressInfo).port });
    await assert.rejects(srv.app().streaming.mount.start(), /rclone rcd did not start: .*address already in use/);
    assert.match((await srv.app().streaming.mount.status()).error, /rclone rcd did not start/);
    assert.equal(isMounted(mnt), false);
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
});
