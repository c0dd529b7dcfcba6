import type { SpoolConfig } from '../config/index.js';
import { durationToNs, sizeToBytes, umaskToNumber } from './rc-units.js';

/**
 * How the `rclone` config keys become an rclone remote-control mount (docs/configuration.md "How the rclone keys
 * reach rclone"): RC `mount/mount` takes `vfsOpt` and `mountOpt` (rclone's option struct field names), and the
 * rcd-wide settings go through `options/set` in rclone's option blocks (`main`, `log`, `vfs`, ...).
 */

type Value = string | number | boolean;
/** The config's rclone section. */
type RcloneConfig = SpoolConfig['rclone'];

export { mountBackend, type MountBackend } from './mount-backend.wire.js';

/** `mount_options` entries Spool reads itself; every other entry goes to rclone's mountOpt unchanged. */
export const SPOOL_MOUNT_OPTIONS = ['backend', 'webdav_url'] as const;

/** rclone's VFS options (vfsOpt of mount/mount) from the rclone section. */
export function vfsOptions(r: RcloneConfig): Record<string, Value> {
  return {
    CacheMode: r.vfs_cache_mode,
    CacheMaxSize: sizeToBytes(r.vfs_cache_max_size),
    CacheMaxAge: durationToNs(r.vfs_cache_max_age),
    CacheMinFreeSpace: sizeToBytes(r.vfs_cache_min_free_space),
    ChunkSize: sizeToBytes(r.read_chunk_size),
    ChunkSizeLimit: sizeToBytes(r.read_chunk_size_limit),
    ChunkStreams: r.vfs_read_chunk_streams,
    ReadAhead: sizeToBytes(r.vfs_read_ahead),
    DirCacheTime: durationToNs(r.dir_cache_time),
    DiskSpaceTotalSize: sizeToBytes(r.vfs_disk_space_total),
    NoModTime: r.no_mod_time,
    NoChecksum: r.no_checksum,
    FastFingerprint: r.vfs_fast_fingerprint,
    ReadOnly: r.read_only,
    UID: r.uid,
    GID: r.gid,
    Umask: umaskToNumber(r.umask),
  };
}

/** rclone's mount options (mountOpt of mount/mount): the FUSE flags, then `mount_options` entries as written. */
export function mountOptions(r: RcloneConfig): Record<string, Value> {
  const extra = Object.entries(r.mount_options).filter(
    ([k]) => !(SPOOL_MOUNT_OPTIONS as readonly string[]).includes(k),
  );
  return {
    AllowOther: r.allow_other,
    AllowNonEmpty: r.allow_non_empty,
    AsyncRead: r.async_read,
    AttrTimeout: durationToNs(r.attr_timeout),
    ...Object.fromEntries(extra),
  };
}

const RC_LOG_LEVEL: Record<RcloneConfig['log_level'], string> = {
  DEBUG: 'DEBUG',
  INFO: 'INFO',
  WARN: 'WARNING',
  ERROR: 'ERROR',
};

/**
 * The rcd-wide options for `options/set`, by block: transfers, buffer size, IO timeout, log level and mmap, then
 * `rc_options` entries (`block.Option`: value, e.g. `main.Checkers: 8`), which win. Not syslog: rclone opens its
 * log outputs once at start (`--syslog`), so setting log.UseSyslog later changes nothing (rclone-mount.ts checks it).
 */
export function globalOptions(r: RcloneConfig): Record<string, Record<string, Value>> {
  const blocks: Record<string, Record<string, Value>> = {
    main: {
      Transfers: r.transfers,
      BufferSize: sizeToBytes(r.buffer_size),
      Timeout: durationToNs(r.timeout),
      LogLevel: RC_LOG_LEVEL[r.log_level],
      UseMmap: r.use_mmap,
    },
  };
  for (const [key, value] of Object.entries(r.rc_options)) {
    const [block, option] = splitRcOption(key);
    (blocks[block] ??= {})[option] = value;
  }
  return blocks;
}

/** `main.Checkers` -> ['main', 'Checkers']; anything else is refused with the expected form. */
export function splitRcOption(key: string): [string, string] {
  const m = /^([A-Za-z][\w-]*)\.([A-Za-z]\w*)$/.exec(key.trim());
  if (!m) throw new Error(`rc_options key ${JSON.stringify(key)} must be <block>.<Option>, e.g. main.Checkers`);
  return [m[1] as string, m[2] as string];
}

/**
 * The `fs` of mount/mount: an on-the-fly rclone WebDAV remote (a connection string, nothing written to rclone's
 * config file) at Spool's WebDAV. `obscuredPass` is the password as rclone's `core/obscure` returned it.
 */
export function webdavFs(url: string, user: string, obscuredPass: string): string {
  const params = [`url=${quote(url)}`, 'vendor=other'];
  if (user) params.push(`user=${quote(user)}`, `pass=${quote(obscuredPass)}`);
  return `:webdav,${params.join(',')}:`;
}

/** rclone connection-string quoting: single quotes, a quote inside doubled. */
const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** Keys of `sent` the rcd did not keep (absent from what it reports back): options this rclone does not know. */
export function unknownKeys(sent: Record<string, unknown>, kept: Record<string, unknown>): string[] {
  return Object.keys(sent).filter((k) => !(k in kept));
}
