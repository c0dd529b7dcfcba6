/**
 * Which mount serves `mount_path`, and which `rclone` keys only an rclone mount reads (docs/configuration.md "Which
 * mount reads which key"). Pure, shared with the console (it greys those keys out while the native backend mounts),
 * so the rule and the list cannot drift between the two.
 */

/** Our FUSE 3 addon, or an rclone rcd mounting Spool's WebDAV. */
export type MountBackend = 'native' | 'rclone';

/**
 * `mount_options.backend` (`native` or `rclone`) when set; otherwise rclone when the RC is enabled (`rc_enabled`:
 * the operator pointed Spool at an rclone rcd), else the native addon. An unknown backend is an error.
 */
export function mountBackend(r: { rc_enabled: boolean; mount_options: Record<string, unknown> }): MountBackend {
  const chosen = String(r.mount_options.backend ?? '')
    .trim()
    .toLowerCase();
  if (chosen === 'native' || chosen === 'rclone') return chosen;
  if (chosen) throw new Error(`mount_options.backend must be native or rclone, not ${JSON.stringify(chosen)}`);
  return r.rc_enabled ? 'rclone' : 'native';
}

/**
 * The `rclone` keys the native mount never reads (rclone's own VFS cache, chunking, logging and transfer settings).
 * The native mount reads allow_other, allow_non_empty, read_only, uid, gid, umask, attr_timeout, dir_cache_time,
 * async_read, log_level and mount_options (appliance/fuse/mount.service.ts, appliance/app/streaming.ts).
 */
export const RCLONE_ONLY_KEYS = [
  'timeout',
  'syslog',
  'buffer_size',
  'transfers',
  'cache_dir',
  'vfs_cache_mode',
  'vfs_cache_max_size',
  'vfs_cache_max_age',
  'read_chunk_size',
  'read_chunk_size_limit',
  'vfs_read_ahead',
  'vfs_cache_min_free_space',
  'vfs_disk_space_total',
  'vfs_read_chunk_streams',
  'no_mod_time',
  'no_checksum',
  'vfs_fast_fingerprint',
  'use_mmap',
] as const;
