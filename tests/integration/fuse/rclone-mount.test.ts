import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { freePort } from '../../support/free-port.js';
import type { TestServer } from '../../support/server.js';
import { isMounted } from '../../../appliance/fuse/mount.service.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { rcCall } from '../../support/rclone/rc-call.js';
import { vfsOptions } from '../../../appliance/rclone/rc-mount-options.js';
import { durationToNs, sizeToBytes } from '../../../appliance/rclone/rc-units.js';
import { addPosted, DAV_PASS, sha256 } from '../webdav/support.js';
import { startServerForRclone } from './support.js';
import { film } from '../../support/media/film.js';
import { HUNG_RUN_MS, waitUntil } from '../../support/wait.js';

// The rclone mount backend against real parts: a real `rclone rcd` (with auth, on loopback) mounts Spool's own
// WebDAV through RC mount/mount; the file posted to a real INN reads byte-exact through rclone's FUSE mount, and
// the rcd reports back (options/get, vfs/stats, mount/listmounts) the values the rclone keys were set to.
const run = promisify(execFile);
const RC_USER = 'rc-user';
const RC_PASS = 'rc-secret-pass';
let inn: InnServer;
let srv: TestServer;
let rcd: ChildProcess;
let rcUrl = '';
let mnt: string;
let rcdCache: string;
let file: Buffer;
let filePath: string;

/** The rcd this test started. */
const rc = <T = Record<string, unknown>>(command: string, params: Record<string, unknown> = {}) =>
  rcCall<T>({ url: rcUrl, user: RC_USER, pass: RC_PASS }, command, params);

async function startRcd(): Promise<void> {
  const port = await freePort();
  rcUrl = `http://127.0.0.1:${port}`;
  rcd = spawn(
    'rclone',
    [
      'rcd',
      `--rc-addr=127.0.0.1:${port}`,
      `--rc-user=${RC_USER}`,
      `--rc-pass=${RC_PASS}`,
      '--config=/dev/null',
      `--cache-dir=${rcdCache}`,
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 150; i++) {
    const ok = await rc('core/version').then(
      () => true,
      () => false,
    );
    if (ok) return;
    if (rcd.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('rclone rcd did not start');
}

before(async () => {
  inn = await ensureInn();
  file = film(3 * 1024 * 1024 + 4321);
  const posted = await inn.postFile('rc.show.s01e01.mkv', file, { articleSize: 300_000 });
  mnt = tempMountPoint('spool-rc-mnt-');
  rcdCache = mkdtempSync(join(tmpdir(), 'spool-rc-cache-'));
  await startRcd();
  srv = await startServerForRclone(inn, mnt);
  [filePath] = (await addPosted(srv, 'tv', 'RC.Show.S01E01', [posted])) as [string];
});

after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
  if (rcd && rcd.exitCode === null) {
    const exited = new Promise((r) => rcd.once('exit', r));
    rcd.kill('SIGTERM');
    await exited;
  }
  rmSync(rcdCache, { recursive: true, force: true });
});

const RCLONE = {
  rc_enabled: true,
  rc_user: RC_USER,
  rc_pass: RC_PASS,
  rc_options: { 'main.Checkers': 3 },
  log_level: 'DEBUG',
  syslog: false,
  buffer_size: '8M',
  transfers: 7,
  timeout: '90s',
  use_mmap: true,
  vfs_cache_mode: 'full',
  vfs_cache_max_size: '3G',
  vfs_cache_max_age: '2h',
  read_chunk_size: '16M',
  read_chunk_size_limit: '64M',
  vfs_read_ahead: '8M',
  dir_cache_time: '7m',
  vfs_cache_min_free_space: '2G',
  vfs_disk_space_total: '5G',
  vfs_read_chunk_streams: 2,
  no_mod_time: true,
  no_checksum: true,
  vfs_fast_fingerprint: true,
  async_read: false,
  umask: '022',
  uid: process.getuid?.() ?? 0,
  gid: process.getgid?.() ?? 0,
};

const mountStatus = async () => srv.app().streaming.mount.status();

test('login without a webdav.password: the rclone mount refuses with what to set', async () => {
  await srv.app().config.patchSection('rclone', { ...RCLONE, rc_url: rcUrl, cache_dir: rcdCache });
  await srv.app().config.patchSection('webdav', { password: '', password_set: false });
  await assert.rejects(srv.app().streaming.mount.start(), /set webdav\.password/);
  assert.match((await mountStatus()).error, /set webdav\.password/);
  assert.equal(isMounted(mnt), false);
  await srv.app().config.patchSection('webdav', { password: DAV_PASS });
});

test('rc_enabled: Spool mounts its WebDAV through the rcd; reads are byte-exact; the rcd holds the configured values', async () => {
  await srv.app().config.patchSection('rclone', {
    ...RCLONE,
    rc_url: rcUrl,
    cache_dir: rcdCache,
    mount_options: { webdav_url: `${srv.baseUrl}/webdav/` },
  });
  const started = await srv.app().streaming.mount.start();
  assert.equal(started.message, 'Mount started');
  assert.deepEqual(await mountStatus(), { mounted: true, mount_point: mnt, error: '' });
  assert.ok(isMounted(mnt), 'the kernel lists the rclone mount');
  // mountOpt reached rclone's FUSE mount: allow_other (default on) is in the kernel's mount options.
  const line = (await run('grep', [` ${mnt} `, '/proc/mounts'])).stdout;
  assert.match(line, /fuse\.rclone .*allow_other/, line);

  const listed = await rc<{ mountPoints: { Fs: string; MountPoint: string }[] }>('mount/listmounts');
  const ours = listed.mountPoints.find((m) => m.MountPoint === mnt);
  assert.ok(ours && /^:webdav/.test(ours.Fs), JSON.stringify(listed));

  // Another process reads the file through rclone's mount (Spool serves the WebDAV in this process).
  const { stdout } = await run('sha256sum', [join(mnt, filePath)], { timeout: HUNG_RUN_MS });
  assert.equal(stdout.split(' ')[0], sha256(file));

  // rcd-wide options (options/set), as rclone reports them back.
  const opts = await rc<Record<string, Record<string, unknown>>>('options/get');
  assert.equal(opts.main!.Transfers, 7);
  assert.equal(opts.main!.BufferSize, 8 * 1024 * 1024);
  assert.equal(opts.main!.Timeout, 90e9);
  assert.equal(opts.main!.UseMmap, true);
  assert.equal(opts.main!.Checkers, 3, 'rc_options main.Checkers');
  assert.ok(['DEBUG', 7].includes(opts.main!.LogLevel as string | number), String(opts.main!.LogLevel));
  assert.equal(opts.log!.UseSyslog, false, 'this rcd was started without --syslog, as configured (syslog: false)');

  // The mount's VFS options (vfsOpt), as the mounted VFS reports them. A key an older rclone does not know must be
  // named in Spool's warning instead: nothing is dropped silently.
  const stats = await rc<{ opt: Record<string, unknown>; diskCache?: { path: string } }>('vfs/stats', {
    fs: ours.Fs,
  });
  const warned = srv.logs
    .map((l) => JSON.parse(l) as { msg: string; ignored?: string[] })
    .filter((l) => l.msg === 'the rclone rcd did not apply some settings')
    .flatMap((l) => l.ignored ?? []);
  const sent = vfsOptions({ ...srv.app().config.get().rclone });
  for (const [key, value] of Object.entries(sent)) {
    if (key in stats.opt) {
      const got = key === 'CacheMode' ? ['off', 'minimal', 'writes', 'full'][stats.opt[key] as number] : stats.opt[key];
      assert.equal(got ?? stats.opt[key], value, `vfs.${key}`);
    } else assert.ok(warned.includes(`vfs.${key}`), `vfs.${key} neither applied nor reported: ${warned.join()}`);
  }
  assert.equal(stats.opt.ChunkSize, sizeToBytes('16M'));
  assert.equal(stats.opt.ChunkSizeLimit, sizeToBytes('64M'));
  assert.equal(stats.opt.CacheMaxAge, durationToNs('2h'));
  assert.equal(stats.opt.DirCacheTime, durationToNs('7m'));
  assert.equal(stats.opt.Umask, 0o022);
  assert.equal(stats.opt.NoModTime, true);
  // cache_dir equals the rcd's --cache-dir: the disk cache is there, and no cache_dir warning.
  assert.ok(stats.diskCache?.path.startsWith(rcdCache + '/'), JSON.stringify(stats.diskCache));
  assert.ok(!warned.some((w) => w.startsWith('cache_dir') || w.startsWith('syslog')), warned.join());
  // vfs_disk_space_total is what the mount reports as its size.
  const { stdout: df } = await run('df', ['-B1', '--output=size', mnt]);
  assert.equal(Number(df.trim().split('\n')[1]), sizeToBytes('5G'));
});

test('an import after mounting shows up at once (vfs/refresh names our VFS), though dir_cache_time is 7m', async () => {
  const before = (await run('ls', [join(mnt, 'complete', 'tv')])).stdout.split('\n').filter(Boolean);
  assert.deepEqual(before, ['RC.Show.S01E01']);
  const extra = film(100_000);
  const posted = await inn.postFile('rc.show.s01e02.mkv', extra, { articleSize: 50_000 });
  await addPosted(srv, 'tv', 'RC.Show.S01E02', [posted]);
  let names: string[] = [];
  await waitUntil(`both shows listed through the mount (${names.join(', ')})`, async () => {
    names = (await run('ls', [join(mnt, 'complete', 'tv')])).stdout.split('\n').filter(Boolean);
    return names.length >= 2;
  });
  const refreshLog = srv.logs.filter((l) => /refresh/.test(l)).join('\n');
  assert.deepEqual(names, ['RC.Show.S01E01', 'RC.Show.S01E02'], refreshLog);
});

test('stop unmounts through RC mount/unmount at the rcd it mounted with, even after rc_url changed', async () => {
  await srv.app().config.patchSection('rclone', { rc_url: `http://127.0.0.1:${await freePort()}` });
  assert.equal((await mountStatus()).mounted, true, 'status asks the rcd the mount was started on');
  assert.deepEqual(await srv.app().streaming.mount.stop(), { message: 'Mount stopped' });
  await srv.app().config.patchSection('rclone', { rc_url: rcUrl });
  const listed = await rc<{ mountPoints: { MountPoint: string }[] }>('mount/listmounts');
  assert.ok(!listed.mountPoints.some((m) => m.MountPoint === mnt), JSON.stringify(listed));
  assert.equal(isMounted(mnt), false);
  assert.equal((await mountStatus()).mounted, false);
});

test('a cache_dir or syslog the rcd does not use is reported; mount_options.backend native overrides rc_enabled', async () => {
  await srv.app().config.patchSection('rclone', { cache_dir: join(tmpdir(), 'elsewhere-rclone-cache'), syslog: true });
  await srv.app().streaming.mount.start();
  const warned = srv.logs
    .map((l) => JSON.parse(l) as { msg: string; ignored?: string[] })
    .filter((l) => l.msg === 'the rclone rcd did not apply some settings')
    .flatMap((l) => l.ignored ?? []);
  assert.ok(
    warned.some((w) => w.startsWith('cache_dir') && w.includes(rcdCache)),
    warned.join(),
  );
  assert.ok(warned.includes('syslog (this rcd does not log to syslog: --syslog is a start flag)'), warned.join());
  await srv.app().streaming.mount.stop();

  await srv.app().config.patchSection('rclone', {
    mount_options: { backend: 'native', webdav_url: `${srv.baseUrl}/webdav/` },
  });
  await srv.app().streaming.mount.start();
  const listed = await rc<{ mountPoints: { MountPoint: string }[] }>('mount/listmounts');
  assert.equal(listed.mountPoints.length, 0, 'the native addon mounted, not the rcd');
  assert.ok(isMounted(mnt));
  const mounts = (await run('grep', [mnt, '/proc/mounts'])).stdout;
  assert.match(mounts, /fuse\.spool/);
  // async_read is still off (RCLONE above): the addon's sync_read; reads stay byte-exact.
  assert.equal(srv.app().config.get().rclone.async_read, false);
  const { stdout } = await run('sha256sum', [join(mnt, filePath)], { timeout: HUNG_RUN_MS });
  assert.equal(stdout.split(' ')[0], sha256(file));
  await srv.app().streaming.mount.stop();
});
