import type { ImportConfig } from '../../api/types';
import { fromLines, toLines } from './lines';
import { NUMBER_RULES, rangeError, type NumberField } from './numbers';

/** The import section as the form edits it: lists as one entry per line, archive passwords write-only. */
export interface ImportForm {
  max_processor_workers: number;
  queue_processing_interval_seconds: number;
  segment_sample_percentage: number;
  max_retries: number;
  failed_item_retention_hours: number;
  max_queued_items: number;
  stuck_timeout_minutes: number;
  import_strategy: ImportConfig['import_strategy'];
  import_dir: string;
  strm_base_url: string;
  watch_dir: string;
  watch_interval_seconds: number;
  allowed_file_extensions: string;
  filter_sample_files: boolean;
  show_archive_volumes: boolean;
  scan_roots: string;
  /** New passwords, one per line; blank keeps the stored ones. */
  archive_passwords: string;
  /** Remove the stored passwords on save. */
  clear_archive_passwords: boolean;
}

export const IMPORT_NUMBER_FIELDS = [
  'max_processor_workers',
  'queue_processing_interval_seconds',
  'segment_sample_percentage',
  'max_retries',
  'failed_item_retention_hours',
  'max_queued_items',
  'stuck_timeout_minutes',
  'watch_interval_seconds',
] as const satisfies readonly (keyof ImportForm)[];

export type ImportErrors = Partial<Record<keyof ImportForm, string>>;

export function importForm(c: ImportConfig): ImportForm {
  return {
    max_processor_workers: c.max_processor_workers,
    queue_processing_interval_seconds: c.queue_processing_interval_seconds,
    segment_sample_percentage: c.segment_sample_percentage,
    max_retries: c.max_retries,
    failed_item_retention_hours: c.failed_item_retention_hours,
    max_queued_items: c.max_queued_items,
    stuck_timeout_minutes: c.stuck_timeout_minutes,
    import_strategy: c.import_strategy,
    import_dir: c.import_dir,
    strm_base_url: c.strm_base_url,
    watch_dir: c.watch_dir,
    watch_interval_seconds: c.watch_interval_seconds,
    allowed_file_extensions: toLines(c.allowed_file_extensions),
    filter_sample_files: c.filter_sample_files,
    show_archive_volumes: c.show_archive_volumes,
    scan_roots: toLines(c.scan_roots),
    archive_passwords: '',
    clear_archive_passwords: false,
  };
}

const isHttpUrl = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** The server's rules for the section (appliance/config/rules.ts and the schema's ranges), checked before saving. */
export function importErrors(f: ImportForm): ImportErrors {
  const errors: ImportErrors = {};
  for (const key of IMPORT_NUMBER_FIELDS) {
    const error = rangeError(f[key], NUMBER_RULES[`import.${key}` satisfies NumberField]);
    if (error) errors[key] = error;
  }
  if ((f.import_strategy === 'symlink' || f.import_strategy === 'strm') && f.import_dir.trim() === '')
    errors.import_dir = `Import directory is required for the ${f.import_strategy} strategy`;
  for (const key of ['import_dir', 'watch_dir'] as const) {
    const dir = f[key].trim();
    if (dir && !dir.startsWith('/')) errors[key] = 'Must be an absolute path (starting with /)';
  }
  const strm = f.strm_base_url.trim();
  if (strm && !isHttpUrl(strm)) errors.strm_base_url = 'Invalid URL format';
  return errors;
}

/** The PATCH /config/import payload: passwords only when new ones were typed or the stored ones are cleared. */
export function importPayload(f: ImportForm): Record<string, unknown> {
  const { archive_passwords, clear_archive_passwords, ...rest } = f;
  const payload: Record<string, unknown> = {
    ...rest,
    import_dir: f.import_dir.trim(),
    strm_base_url: f.strm_base_url.trim(),
    watch_dir: f.watch_dir.trim(),
    allowed_file_extensions: fromLines(f.allowed_file_extensions),
    scan_roots: fromLines(f.scan_roots),
  };
  const typed = fromLines(archive_passwords);
  if (typed.length > 0) payload.archive_passwords = typed;
  else if (clear_archive_passwords) Object.assign(payload, { archive_passwords: [], archive_passwords_set: false });
  return payload;
}
