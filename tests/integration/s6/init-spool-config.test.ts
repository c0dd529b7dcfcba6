/**
 * The init-spool-config oneshot, run as root against a temp root: the service user takes PUID/PGID (in a copy
 * of passwd/group, through the shadow tools' --prefix), the data dir is created and everything in it comes to
 * belong to PUID:PGID, the mount point itself does too (never its contents), and bad input changes nothing.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { S6_RC_DIR } from './s6.support.js';

const INIT = join(S6_RC_DIR, 'init-spool-config', 'run');

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'spool-init-'));
  chmodSync(root, 0o755); // PUID:PGID must reach the data dir inside it, as they reach /config in the image
  mkdirSync(join(root, 'etc'));
  // What the image's `useradd --uid 911 --user-group abc` leaves, next to the node image's own user.
  writeFileSync(
    join(root, 'etc/passwd'),
    'root:x:0:0:root:/root:/bin/bash\nnode:x:1000:1000::/home/node:/bin/bash\nabc:x:911:911::/nonexistent:/usr/sbin/nologin\n',
  );
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\nnode:x:1000:\nabc:x:911:\n');
  writeFileSync(join(root, 'etc/shadow'), 'root:*:19000:0:99999:7:::\nnode:!:19000::::::\nabc:!:19000::::::\n');
  writeFileSync(join(root, 'etc/gshadow'), 'root:*::\nnode:!::\nabc:!::\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function runInit(env: Record<string, string>) {
  const res = spawnSync(INIT, [], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
      SPOOL_USERDB_PREFIX: root,
      SPOOL_DATA: join(root, 'config'),
      SPOOL_MOUNT_DIR: join(root, 'mnt/spool'),
      SPOOL_FUSE_DEVICE: join(root, 'dev/fuse'),
      SPOOL_EXTRA_USERS_DIR: join(root, 'users'),
      ...env,
    },
  });
  return { status: res.status, out: `${res.stdout}${res.stderr}` };
}

const owner = (p: string) => {
  const s = lstatSync(p);
  return `${s.uid}:${s.gid}`;
};
const entry = (file: string, name: string) =>
  readFileSync(join(root, 'etc', file), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));

describe('init-spool-config', () => {
  it('gives abc PUID/PGID and hands the data dir and the mount point (not its contents) to them', () => {
    const config = join(root, 'config');
    mkdirSync(join(config, 'metadata'), { recursive: true });
    writeFileSync(join(config, 'config.yaml'), 'webdav: {}\n');
    writeFileSync(join(config, 'metadata', 'data.mdb'), 'x');
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'not ours');
    symlinkSync(outside, join(config, 'link-out'));
    const mount = join(root, 'mnt/spool');
    mkdirSync(mount, { recursive: true });
    writeFileSync(join(mount, 'left-by-host.mkv'), '');
    const realPasswd = readFileSync('/etc/passwd', 'utf8');

    const res = runInit({ PUID: '1000', PGID: '2345' });
    assert.equal(res.status, 0, res.out);
    assert.match(res.out, /running Spool as abc \(1000:2345\)/);

    assert.equal(entry('passwd', 'abc'), 'abc:x:1000:2345::/nonexistent:/usr/sbin/nologin');
    assert.equal(entry('group', 'abc'), 'abc:x:2345:');
    assert.equal(
      entry('passwd', 'node'),
      'node:x:1000:1000::/home/node:/bin/bash',
      'a shared uid (-o) leaves node alone',
    );
    for (const p of [
      config,
      join(config, 'config.yaml'),
      join(config, 'metadata'),
      join(config, 'metadata/data.mdb'),
      join(config, 'link-out'),
    ])
      assert.equal(owner(p), '1000:2345', p);
    assert.equal(owner(outside), '0:0', 'a symlink in /config is not followed out of it');
    assert.equal(owner(mount), '1000:2345');
    assert.equal(owner(join(mount, 'left-by-host.mkv')), '0:0', 'the mount point is not chowned recursively');
    assert.equal(readFileSync('/etc/passwd', 'utf8'), realPasswd, 'the real user database is untouched');
  });

  it('lets the service group open the FUSE device (libfuse opens it as the caller) and says when there is none', () => {
    mkdirSync(join(root, 'dev'));
    // A real character device with the FUSE numbers, 0600 root like on some hosts.
    execFileSync('mknod', ['-m', '600', join(root, 'dev/fuse'), 'c', '10', '229']);
    const res = runInit({ PUID: '1000', PGID: '2345' });
    assert.equal(res.status, 0, res.out);
    const dev = statSync(join(root, 'dev/fuse'));
    assert.ok(dev.isCharacterDevice());
    assert.equal(dev.gid, 2345);
    assert.equal(dev.mode & 0o777, 0o660);

    rmSync(join(root, 'dev/fuse'));
    const without = runInit({ PUID: '1000', PGID: '2345' });
    assert.equal(without.status, 0, 'WebDAV works without FUSE, so a missing device is not fatal');
    assert.match(
      without.out,
      /the FUSE mount cannot start \(WebDAV works\)\. Add --device \/dev\/fuse --cap-add SYS_ADMIN/,
    );
  });

  it('creates a missing data dir with its metadata dir, and a second run changes nothing', () => {
    const first = runInit({ PUID: '911', PGID: '911' });
    assert.equal(first.status, 0, first.out);
    assert.equal(owner(join(root, 'config/metadata')), '911:911');
    assert.ok(statSync(join(root, 'mnt/spool')).isDirectory());
    const passwd = readFileSync(join(root, 'etc/passwd'), 'utf8');
    const second = runInit({ PUID: '911', PGID: '911' });
    assert.equal(second.status, 0, second.out);
    assert.equal(readFileSync(join(root, 'etc/passwd'), 'utf8'), passwd);
  });

  it('refuses a PUID or PGID that is not a number, with the reason, and changes nothing', () => {
    for (const [env, message] of [
      [{ PUID: 'abc', PGID: '100' }, /PUID must be a number, got 'abc'/],
      [{ PUID: '1000', PGID: '-5' }, /PGID must be a number, got '-5'/],
      [{ PUID: '1e3', PGID: '100' }, /PUID must be a number, got '1e3'/],
    ] as const) {
      const res = runInit(env);
      assert.equal(res.status, 1, res.out);
      assert.match(res.out, message);
    }
    assert.equal(entry('passwd', 'abc'), 'abc:x:911:911::/nonexistent:/usr/sbin/nologin');
    assert.throws(() => statSync(join(root, 'config')), /ENOENT/, 'nothing was created');
  });

  it('stops with the fix when PUID:PGID cannot write the data dir (a volume whose owner cannot be changed)', () => {
    const config = join(root, 'config');
    mkdirSync(config);
    // A real read-only file system: chown fails as it does on an NFS export with root_squash.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=755', 'tmpfs', config]);
    try {
      mkdirSync(join(config, 'metadata'));
      execFileSync('mount', ['-o', 'remount,ro', config]);
      const res = runInit({ PUID: '1000', PGID: '2345' });
      assert.equal(res.status, 1, res.out);
      assert.match(res.out, /could not give everything in .*config to 1000:2345/);
      assert.match(
        res.out,
        /PUID:PGID 1000:2345 cannot write .*config \(owner 0:0, mode 755\), so Spool cannot keep its state there\. Make the host directory behind it writable by them \(chown -R 1000:2345 <host dir>\), or set PUID and PGID to its owner\./,
      );
    } finally {
      execFileSync('umount', [config]);
    }
  });

  it('keeps the ids in a read-only /etc/passwd and says Spool runs as PUID:PGID by number', () => {
    const etc = join(root, 'etc');
    execFileSync('mount', ['--bind', etc, etc]);
    try {
      execFileSync('mount', ['-o', 'remount,bind,ro', etc]);
      const res = runInit({ PUID: '1000', PGID: '2345' });
      assert.equal(res.status, 0, res.out);
      assert.match(res.out, /passwd is read-only, so abc keeps its ids there; Spool runs as 1000:2345 by number/);
      assert.equal(owner(join(root, 'config/metadata')), '1000:2345');
      // fusermount3 needs a name for the uid: libnss-extrausers reads these (the image links its dir here).
      assert.equal(
        readFileSync(join(root, 'users/passwd'), 'utf8'),
        'spool:x:1000:2345:Spool:/nonexistent:/usr/sbin/nologin\n',
      );
      assert.equal(readFileSync(join(root, 'users/group'), 'utf8'), 'spool:x:2345:\n');
    } finally {
      execFileSync('umount', [etc]);
    }
    assert.equal(entry('passwd', 'abc'), 'abc:x:911:911::/nonexistent:/usr/sbin/nologin');
  });

  it('names a service user that does not exist', () => {
    const res = runInit({ PUID: '1000', PGID: '1000', SPOOL_USER: 'spool-nobody' });
    assert.equal(res.status, 1);
    assert.match(res.out, /user 'spool-nobody' does not exist/);
  });
});
