import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS } from '../config/defaults.js';
import type { SpoolConfig } from '../config/index.js';
import { validateConfig } from '../config/validate.js';
import {
  globalOptions,
  mountBackend,
  mountOptions,
  splitRcOption,
  unknownKeys,
  vfsOptions,
  webdavFs,
} from './rc-mount-options.js';
import { DURATION_OFF_NS, durationToNs, sizeToBytes, umaskToNumber } from './rc-units.js';

const rclone = (r: Partial<SpoolConfig['rclone']> = {}): SpoolConfig['rclone'] => ({ ...DEFAULTS.rclone, ...r });
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

test('sizes in rclone syntax become bytes: binary units, plain numbers are KiB, off is -1', () => {
  assert.equal(sizeToBytes('32M'), 32 * MiB);
  assert.equal(sizeToBytes('2G'), 2 * GiB);
  assert.equal(sizeToBytes('1.5G'), 1.5 * GiB);
  assert.equal(sizeToBytes('128k'), 128 * 1024);
  assert.equal(sizeToBytes('512'), 512 * 1024);
  assert.equal(sizeToBytes('100b'), 100);
  assert.equal(sizeToBytes('32Mi'), 32 * MiB);
  assert.equal(sizeToBytes('32MiB'), 32 * MiB);
  assert.equal(sizeToBytes('1T'), 1024 * GiB);
  assert.equal(sizeToBytes('off'), -1);
  assert.equal(sizeToBytes('OFF'), -1);
  assert.throws(() => sizeToBytes('32 apples'), /not an rclone size/);
  assert.throws(() => sizeToBytes(''), /not an rclone size/);
});

test('durations in rclone syntax become nanoseconds, with rclone d/w/M/y; off is a huge exact value', () => {
  assert.equal(durationToNs('1s'), 1e9);
  assert.equal(durationToNs('10m'), 600e9);
  assert.equal(durationToNs('504h'), 504 * 3600e9);
  assert.equal(durationToNs('1h30m'), 5400e9);
  assert.equal(durationToNs('250ms'), 250e6);
  assert.equal(durationToNs('1.5s'), 1.5e9);
  assert.equal(durationToNs('2d'), 2 * 86_400e9);
  assert.equal(durationToNs('1w'), 7 * 86_400e9);
  assert.equal(durationToNs('1M'), 30 * 86_400e9);
  assert.equal(durationToNs('1y'), 365 * 86_400e9);
  assert.equal(durationToNs('0'), 0);
  assert.equal(durationToNs('off'), DURATION_OFF_NS);
  // As JSON it stays inside Go's int64 (the largest int64 itself would round up past it and be refused).
  assert.ok(BigInt(JSON.stringify(DURATION_OFF_NS)) < BigInt(2) ** BigInt(63));
  assert.ok(BigInt(JSON.stringify(2 ** 63 - 1)) >= BigInt(2) ** BigInt(63));
  assert.throws(() => durationToNs('10 minutes'), /not an rclone duration/);
  assert.throws(() => durationToNs('5x'), /not an rclone duration/);
});

test('umask is octal', () => {
  assert.equal(umaskToNumber('002'), 2);
  assert.equal(umaskToNumber('0022'), 18);
  assert.equal(umaskToNumber('777'), 511);
});

test('vfsOpt carries every VFS key of the section in rclone RC units (the defaults of the contract)', () => {
  assert.deepEqual(vfsOptions(rclone()), {
    CacheMode: 'full',
    CacheMaxSize: 50 * GiB,
    CacheMaxAge: 504 * 3600e9,
    CacheMinFreeSpace: GiB,
    ChunkSize: 32 * MiB,
    ChunkSizeLimit: 2 * GiB,
    ChunkStreams: 4,
    ReadAhead: 128 * MiB,
    DirCacheTime: 600e9,
    DiskSpaceTotalSize: GiB,
    NoModTime: false,
    NoChecksum: false,
    FastFingerprint: false,
    ReadOnly: false,
    UID: 1000,
    GID: 1000,
    Umask: 2,
  });
  const changed = vfsOptions(
    rclone({
      vfs_cache_mode: 'writes',
      vfs_cache_max_size: 'off',
      read_chunk_size_limit: 'off',
      no_mod_time: true,
      no_checksum: true,
      vfs_fast_fingerprint: true,
      read_only: true,
      umask: '0027',
      vfs_read_chunk_streams: 0,
    }),
  );
  assert.equal(changed.CacheMode, 'writes');
  assert.equal(changed.CacheMaxSize, -1);
  assert.equal(changed.ChunkSizeLimit, -1);
  assert.equal(changed.Umask, 0o027);
  assert.equal(changed.ChunkStreams, 0);
  assert.deepEqual(
    [changed.NoModTime, changed.NoChecksum, changed.FastFingerprint, changed.ReadOnly],
    [true, true, true, true],
  );
});

test('mountOpt: the FUSE flags, then mount_options entries unchanged except the ones Spool reads', () => {
  assert.deepEqual(mountOptions(rclone()), {
    AllowOther: true,
    AllowNonEmpty: true,
    AsyncRead: true,
    AttrTimeout: 1e9,
  });
  const m = mountOptions(
    rclone({
      async_read: false,
      allow_other: false,
      attr_timeout: '5s',
      mount_options: { backend: 'rclone', webdav_url: 'http://h/webdav/', MaxReadAhead: 1048576, NoAppleDouble: true },
    }),
  );
  assert.deepEqual(m, {
    AllowOther: false,
    AllowNonEmpty: true,
    AsyncRead: false,
    AttrTimeout: 5e9,
    MaxReadAhead: 1048576,
    NoAppleDouble: true,
  });
});

test('options/set blocks: transfers, buffer, timeout, log level, mmap; rc_options by block win', () => {
  assert.deepEqual(globalOptions(rclone()), {
    main: { Transfers: 4, BufferSize: 32 * MiB, Timeout: 600e9, LogLevel: 'INFO', UseMmap: false },
  });
  const g = globalOptions(
    rclone({
      log_level: 'WARN',
      use_mmap: true,
      syslog: false,
      transfers: 9,
      rc_options: { 'main.Checkers': 16, 'main.Transfers': 12, 'vfs.CachePollInterval': 30e9 },
    }),
  );
  assert.deepEqual(g, {
    main: { Transfers: 12, BufferSize: 32 * MiB, Timeout: 600e9, LogLevel: 'WARNING', UseMmap: true, Checkers: 16 },
    vfs: { CachePollInterval: 30e9 },
  });
  assert.deepEqual(splitRcOption('rc-http.BaseURL'), ['rc-http', 'BaseURL']);
  assert.throws(() => globalOptions(rclone({ rc_options: { checkers: 8 } })), /must be <block>.<Option>/);
});

test('the backend: mount_options.backend wins; otherwise rclone when the RC is enabled', () => {
  assert.equal(mountBackend(rclone()), 'native');
  assert.equal(mountBackend(rclone({ rc_enabled: true })), 'rclone');
  assert.equal(mountBackend(rclone({ rc_enabled: true, mount_options: { backend: 'native' } })), 'native');
  assert.equal(mountBackend(rclone({ mount_options: { backend: ' RClone ' } })), 'rclone');
  assert.throws(() => mountBackend(rclone({ mount_options: { backend: 'fuse2' } })), /native or rclone/);
});

test('the WebDAV remote is a connection string; values are quoted, quotes doubled', () => {
  assert.equal(
    webdavFs('http://127.0.0.1:8080/webdav/', '', ''),
    ":webdav,url='http://127.0.0.1:8080/webdav/',vendor=other:",
  );
  assert.equal(
    webdavFs('http://h:1/webdav/', "o'neil", 'OBSC'),
    ":webdav,url='http://h:1/webdav/',vendor=other,user='o''neil',pass='OBSC':",
  );
});

test('keys the rcd did not keep are reported (an rclone older than the option)', () => {
  assert.deepEqual(unknownKeys({ ChunkSize: 1, ChunkStreams: 4 }, { ChunkSize: 1 }), ['ChunkStreams']);
});

test('config validation refuses an rc_options key without a block and a bad backend or webdav_url', () => {
  const bad = validateConfig({
    ...DEFAULTS,
    rclone: rclone({ rc_options: { checkers: 8 }, mount_options: { backend: 'x', webdav_url: 'ftp://h' } }),
  });
  assert.equal(bad.ok, false);
  const messages = (bad.ok ? [] : bad.errors).map((e) => `${e.field}: ${e.message}`);
  assert.ok(
    messages.some((m) => /rclone.rc_options: 'checkers' must be <block>.<Option>/.test(m)),
    messages.join(),
  );
  assert.ok(
    messages.some((m) => /backend must be native or rclone/.test(m)),
    messages.join(),
  );
  assert.ok(
    messages.some((m) => /webdav_url must be an http\(s\) URL/.test(m)),
    messages.join(),
  );
  const good = validateConfig({
    ...DEFAULTS,
    rclone: rclone({ rc_options: { 'main.Checkers': 8 }, mount_options: { backend: 'rclone' } }),
  });
  assert.equal(good.ok, true, JSON.stringify(good));
});
