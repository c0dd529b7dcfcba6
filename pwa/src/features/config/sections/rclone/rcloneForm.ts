/**
 * The Mount & RClone form (docs/console-contract.md §3 Rclone/mount config, §9 defaults, §5 fallbacks) and its conversion to the
 * PATCH payload. Option maps are edited as `key=value` lines.
 */
import { NUMBER_RULES, type NumberRule } from '../../numbers';
import type { SpoolConfig } from '../../../../api/types';
import { DEFAULTS } from '../../serverConfig';
import { mountBackend, type MountBackend } from '../../../../../../appliance/rclone/mount-backend.wire';

/** GET /config `rclone` as the server answers it: rc_pass is write-only, rc_pass_set says whether one is stored. */
export type RcloneConfig = SpoolConfig['rclone'];
export type OptionValue = RcloneConfig['rc_options'][string];
export type LogLevel = RcloneConfig['log_level'];
export type VfsCacheMode = RcloneConfig['vfs_cache_mode'];

const { rc_pass: _writeOnly, ...serverDefaults } = DEFAULTS.rclone;

/**
 * docs/console-contract.md §9 defaults, used for any key a server answer lacks. The cache dir's default lies under the server's data dir,
 * which the console cannot know, so it has none.
 */
export const RCLONE_DEFAULTS: Omit<RcloneConfig, 'rc_pass_set'> = { ...serverDefaults, cache_dir: '' };

export const DEFAULT_MOUNT_PATH = DEFAULTS.mount_path;

export const RCLONE_NUMBER_RULES = {
  rc_port: NUMBER_RULES['rclone.rc_port'],
  transfers: NUMBER_RULES['rclone.transfers'],
  uid: NUMBER_RULES['rclone.uid'],
  gid: NUMBER_RULES['rclone.gid'],
  vfs_read_chunk_streams: NUMBER_RULES['rclone.vfs_read_chunk_streams'],
} as const satisfies Record<string, NumberRule>;

/**
 * What the form edits. rc_enabled is not here: the RC toggle is saved on its own at once (docs/console-contract.md §4), so it must
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

/** The PATCH rclone payload: everything but mount_path; rc_pass only when typed (docs/console-contract.md §4). */
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

/**
 * The backend the saved RC switch and the edited extra mount options select (the server's rule,
 * appliance/rclone/mount-backend.wire.ts); a backend name the server would refuse reads as the native default here
 * (validate() reports the options' own errors).
 */
export function backendOf(rcEnabled: boolean, mountOptionsText: string): MountBackend {
  try {
    return mountBackend({ rc_enabled: rcEnabled, mount_options: parseOptions(mountOptionsText).value });
  } catch {
    return 'native';
  }
}
