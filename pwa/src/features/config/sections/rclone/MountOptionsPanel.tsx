import { RCLONE_ONLY_KEYS } from '../../../../../../appliance/rclone/mount-backend.wire';
import { NumberInput, SelectField, TextField, ToggleField } from '../../fields';
import { OptionsField } from './OptionsField';
import { RCLONE_NUMBER_RULES, type FormErrors, type RcloneForm } from './rcloneForm';

type Setter = <K extends keyof RcloneForm>(key: K, value: RcloneForm[K]) => void;

/** The RC port lives in the RC panel; these are the mount's own numbers. Without a hint the range is shown. */
const NUMBER_FIELDS: [Exclude<keyof typeof RCLONE_NUMBER_RULES, 'rc_port'>, string, string?][] = [
  ['uid', 'UID', 'Owner of the mounted files'],
  ['gid', 'GID', 'Group of the mounted files'],
  ['transfers', 'Transfers'],
  ['vfs_read_chunk_streams', 'VFS read chunk streams'],
];

const TEXT_FIELDS: [keyof RcloneForm & string, string, string][] = [
  ['timeout', 'Timeout', 'Duration, e.g. 10m'],
  ['umask', 'Umask', 'Octal, e.g. 002'],
  ['buffer_size', 'Buffer size', 'Size, e.g. 32M'],
  ['attr_timeout', 'Attribute timeout', 'Duration, e.g. 1s'],
  ['dir_cache_time', 'Directory cache time', 'Duration, e.g. 10m'],
  ['cache_dir', 'Cache directory', 'Where the VFS cache lives'],
  ['vfs_cache_max_size', 'VFS cache max size', 'Size, e.g. 50G'],
  ['vfs_cache_max_age', 'VFS cache max age', 'Duration, e.g. 504h'],
  ['vfs_cache_min_free_space', 'VFS cache min free space', 'Size, e.g. 1G'],
  ['vfs_disk_space_total', 'VFS disk space total', 'Size, e.g. 1G'],
  ['read_chunk_size', 'Read chunk size', 'Size, e.g. 32M'],
  ['read_chunk_size_limit', 'Read chunk size limit', 'Size, e.g. 2G'],
  ['vfs_read_ahead', 'VFS read-ahead', 'Size, e.g. 128M'],
];

const TOGGLES: [keyof RcloneForm & string, string][] = [
  ['allow_other', 'Allow other users'],
  ['allow_non_empty', 'Allow non-empty mount point'],
  ['read_only', 'Read only'],
  ['syslog', 'Log to syslog'],
  ['async_read', 'Async read'],
  ['no_mod_time', 'No modification time'],
  ['no_checksum', 'No checksum'],
  ['vfs_fast_fingerprint', 'VFS fast fingerprint'],
  ['use_mmap', 'Use mmap'],
];

const RCLONE_ONLY: ReadonlySet<string> = new Set(RCLONE_ONLY_KEYS);

/**
 * Every mount and VFS cache setting of docs/console-contract.md §3, with §9 defaults. While Spool's own FUSE driver
 * mounts (`native`), the settings only rclone reads are greyed out, and the panel says why.
 */
export function MountOptionsPanel({
  form,
  errors,
  set,
  disabled,
  native,
}: {
  form: RcloneForm;
  errors: FormErrors;
  set: Setter;
  disabled?: boolean;
  native: boolean;
}) {
  const off = (key: string) => disabled || (native && RCLONE_ONLY.has(key));
  return (
    <section className="rclone-block" aria-labelledby="rclone-options-title">
      <h3 id="rclone-options-title" className="rclone-block__title">
        Mount and cache options
      </h3>
      {native && (
        <p className="field__hint" role="note">
          The mount is served by Spool’s own FUSE driver, which reads only the owner, permission, cache-time, read-only,
          log-level and async-read settings. The greyed-out settings apply only when rclone mounts (RC enabled, or{' '}
          <code>backend: rclone</code> in the extra mount options).
        </p>
      )}
      <div className="field-grid field-grid--2">
        <SelectField
          label="Log level"
          value={form.log_level}
          options={['DEBUG', 'INFO', 'WARN', 'ERROR'] as const}
          onChange={(v) => set('log_level', v)}
          disabled={off('log_level')}
        />
        <SelectField
          label="VFS cache mode"
          value={form.vfs_cache_mode}
          options={['off', 'minimal', 'writes', 'full'] as const}
          onChange={(v) => set('vfs_cache_mode', v)}
          disabled={off('vfs_cache_mode')}
        />
        {NUMBER_FIELDS.map(([key, label, hint]) => (
          <NumberInput
            key={key}
            label={label}
            value={form[key]}
            rule={RCLONE_NUMBER_RULES[key]}
            onChange={(v) => set(key, v)}
            error={errors[key]}
            hint={hint}
            disabled={off(key)}
          />
        ))}
        {TEXT_FIELDS.map(([key, label, hint]) => (
          <TextField
            key={key}
            label={label}
            value={String(form[key])}
            onChange={(v) => set(key, v as never)}
            error={errors[key]}
            hint={hint}
            disabled={off(key)}
          />
        ))}
      </div>
      <div className="field-grid field-grid--2">
        {TOGGLES.map(([key, label]) => (
          <ToggleField
            key={key}
            label={label}
            checked={Boolean(form[key])}
            onChange={(v) => set(key, v as never)}
            disabled={off(key)}
          />
        ))}
      </div>
      <OptionsField
        label="Extra mount options"
        value={form.mount_options}
        onChange={(v) => set('mount_options', v)}
        error={errors.mount_options}
        disabled={disabled}
      />
    </section>
  );
}
