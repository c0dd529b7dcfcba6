/**
 * The Mount & RClone form (spec §3 Rclone/mount config, §9 defaults, §5 fallbacks) and its conversion to the
 * PATCH payload. Option maps are edited as `key=value` lines.
 */
import type { NumberRule } from '../../numbers';

export type OptionValue = string | number | boolean;
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
export type VfsCacheMode = 'off' | 'minimal' | 'writes' | 'full';

/** GET /config `rclone` as the server answers it: rc_pass is write-only, rc_pass_set says whether one is stored. */
export interface RcloneConfig {
  rc_enabled: boolean;
  rc_url: string;
  rc_port: number;
  rc_user: string;
  rc_pass_set: boolean;
  rc_options: Record<string, OptionValue>;
  mount_enabled: boolean;
  mount_options: Record<string, OptionValue>;
  allow_other: boolean;
  allow_non_empty: boolean;
  read_only: boolean;
  timeout: string;
  syslog: boolean;
  log_level: LogLevel;
  uid: number;
  gid: number;
  umask: string;
  buffer_size: string;
  attr_timeout: string;
  transfers: number;
  cache_dir: string;
  vfs_cache_mode: VfsCacheMode;
  vfs_cache_max_size: string;
  vfs_cache_max_age: string;
  read_chunk_size: string;
  read_chunk_size_limit: string;
  vfs_read_ahead: string;
  dir_cache_time: string;
  vfs_cache_min_free_space: string;
  vfs_disk_space_total: string;
  vfs_read_chunk_streams: number;
  no_mod_time: boolean;
  no_checksum: boolean;
  async_read: boolean;
  vfs_fast_fingerprint: boolean;
  use_mmap: boolean;
}

/** §9 defaults, used for any key a server answer lacks. */
export const RCLONE_DEFAULTS: Omit<RcloneConfig, 'rc_pass_set'> = {
  rc_enabled: false,
  rc_url: '',
  rc_port: 5572,
  rc_user: '',
  rc_options: {},
  mount_enabled: false,
  mount_options: {},
  allow_other: true,
  allow_non_empty: true,
  read_only: false,
  timeout: '10m',
  syslog: true,
  log_level: 'INFO',
  uid: 1000,
  gid: 1000,
  umask: '002',
  buffer_size: '32M',
  attr_timeout: '1s',
  transfers: 4,
  cache_dir: '',
  vfs_cache_mode: 'full',
  vfs_cache_max_size: '50G',
  vfs_cache_max_age: '504h',
  read_chunk_size: '32M',
  read_chunk_size_limit: '2G',
  vfs_read_ahead: '128M',
  dir_cache_time: '10m',
  vfs_cache_min_free_space: '1G',
  vfs_disk_space_total: '1G',
  vfs_read_chunk_streams: 4,
  no_mod_time: false,
  no_checksum: false,
  async_read: true,
  vfs_fast_fingerprint: false,
  use_mmap: false,
};

export const DEFAULT_MOUNT_PATH = '/mnt/spool';

export const RCLONE_NUMBER_RULES = {
  rc_port: { min: 1, max: 65535, fallback: 5572 },
  transfers: { min: 1, max: 32, fallback: 4 },
  uid: { min: 0, max: 4294967295, fallback: 1000 },
  gid: { min: 0, max: 4294967295, fallback: 1000 },
  vfs_read_chunk_streams: { min: 0, max: 64, fallback: 4 },
} as const satisfies Record<string, NumberRule>;

/**
 * What the form edits. rc_enabled is not here: the RC toggle is saved on its own at once (spec §4), so it must
 * not make the rest of the form dirty or be reset by it.
 */
export type RcloneForm = Omit<RcloneConfig, 'rc_enabled' | 'rc_pass_set' | 'rc_options' | 'mount_options'> & {
  rc_pass: string;
  rc_options: string;
  mount_options: string;
  mount_path: string;
};

export function optionsToText(options: Record<string, OptionValue> | undefined): string {
  return Object.entries(options ?? {})
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('\n');
}

/** `key=value` lines to an option map; numbers and true/false keep their type. Reports every bad line. */
export function parseOptions(text: string): { value: Record<string, OptionValue>; errors: string[] } {
  const value: Record<string, OptionValue> = {};
  const errors: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq).trim() : '';
    if (!key) {
      errors.push(`Line ${i + 1}: expected key=value`);
      return;
    }
    const v = line.slice(eq + 1).trim();
    value[key] = v === 'true' ? true : v === 'false' ? false : v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  });
  return { value, errors };
}

export function toForm(saved: Partial<RcloneConfig> | undefined, mountPath: string | undefined): RcloneForm {
  const c = { ...RCLONE_DEFAULTS, ...(saved ?? {}) };
  const { rc_enabled: _rc, rc_pass_set: _set, ...rest } = c as RcloneConfig;
  void _rc;
  void _set;
  return {
    ...rest,
    rc_pass: '',
    rc_options: optionsToText(c.rc_options),
    mount_options: optionsToText(c.mount_options),
    mount_path: mountPath ?? DEFAULT_MOUNT_PATH,
  };
}

/** The PATCH rclone payload: everything but mount_path; rc_pass only when typed (spec §4). */
export function toPayload(form: RcloneForm): Record<string, unknown> {
  const { mount_path: _path, rc_pass, rc_options, mount_options, ...rest } = form;
  void _path;
  const payload: Record<string, unknown> = {
    ...rest,
    rc_options: parseOptions(rc_options).value,
    mount_options: parseOptions(mount_options).value,
  };
  if (rc_pass.trim() !== '') payload.rc_pass = rc_pass;
  return payload;
}

const SIZE = /^(off|\d+(\.\d+)?([bkmgtp]i?b?)?)$/i;
const DURATION = /^(off|0|(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w|M|y))+)$/;
const SIZE_FIELDS = [
  'buffer_size',
  'vfs_cache_max_size',
  'read_chunk_size',
  'read_chunk_size_limit',
  'vfs_read_ahead',
  'vfs_cache_min_free_space',
  'vfs_disk_space_total',
] as const;
const DURATION_FIELDS = ['timeout', 'attr_timeout', 'vfs_cache_max_age', 'dir_cache_time'] as const;

export type FormErrors = Partial<Record<keyof RcloneForm, string>>;

/** The checks the server makes too, shown beside each field before saving. */
export function validate(form: RcloneForm): FormErrors {
  const errors: FormErrors = {};
  for (const k of SIZE_FIELDS) if (!SIZE.test(form[k].trim())) errors[k] = 'Must be a size like 32M, 2G or off';
  for (const k of DURATION_FIELDS)
    if (!DURATION.test(form[k].trim())) errors[k] = 'Must be a duration like 1s, 10m, 504h or off';
  for (const [k, rule] of Object.entries(RCLONE_NUMBER_RULES) as [keyof typeof RCLONE_NUMBER_RULES, NumberRule][]) {
    const v = form[k];
    if (!Number.isInteger(v) || v < rule.min || v > rule.max)
      errors[k] = `Must be a whole number from ${rule.min} to ${rule.max}`;
  }
  if (!/^0?[0-7]{3}$/.test(form.umask.trim())) errors.umask = 'Must be an octal umask like 002';
  if (form.rc_url.trim() && !/^https?:\/\/[^\s/]+/i.test(form.rc_url.trim())) errors.rc_url = 'Invalid URL format';
  if (form.mount_path.trim() && !form.mount_path.trim().startsWith('/')) {
    errors.mount_path = 'Mount path must be an absolute path (starting with /)';
  }
  const rcOpts = parseOptions(form.rc_options).errors;
  if (rcOpts.length) errors.rc_options = rcOpts.join('; ');
  const mountOpts = parseOptions(form.mount_options).errors;
  if (mountOpts.length) errors.mount_options = mountOpts.join('; ');
  return errors;
}
