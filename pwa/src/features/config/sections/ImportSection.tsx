import type { SpoolConfig } from '../../../api/types';
import { LinesField, SelectField, TextField, ToggleField } from '../fields';
import { importErrors, importForm, importPayload, type IMPORT_NUMBER_FIELDS, type ImportForm } from '../importRules';
import { NumberFields, type NumberRow } from '../NumberFields';
import { NUMBER_RULES } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

type ImportNumberField = (typeof IMPORT_NUMBER_FIELDS)[number];

const STRATEGY_HINTS: Record<ImportForm['import_strategy'], string> = {
  symlink: 'A folder of symlinks to the mount per job; Radarr/Sonarr move the links into the library.',
  strm: 'A folder of .strm files per job, each holding the file’s WebDAV URL, for players that read .strm.',
  none: 'Jobs stay in Spool’s own tree (the mount’s complete folder); nothing is written for the arrs.',
};

/** The section's whole-number fields, one table per field grid, in the order they are shown. */
const PROCESSING = [
  ['max_processor_workers', 'Max processor workers', '1 – 20. Takes effect after a server restart.'],
  [
    'queue_processing_interval_seconds',
    'Queue processing interval (seconds)',
    '1 – 300. Interval changes need a service restart.',
  ],
  ['segment_sample_percentage', 'Articles checked at import (%)', '1 – 100 of each file’s articles.'],
  ['max_retries', 'Max retries', '0 – 10 tries after a network failure before an item fails.'],
  [
    'failed_item_retention_hours',
    'Keep failed items (hours)',
    '0 – 8760. Failed queue items are removed this long after failing; 0 keeps them until cleared.',
  ],
  [
    'max_queued_items',
    'Max queued items',
    '0 – 1000000 unfinished items; past that, new NZBs are refused so Radarr/Sonarr retry later. 0 = no limit.',
  ],
  [
    'stuck_timeout_minutes',
    'Stuck import timeout (minutes)',
    '0 – 1440. An import with no progress this long is stopped and retried. 0 = off.',
  ],
] as const satisfies readonly NumberRow<ImportNumberField>[];
const WATCH = [
  ['watch_interval_seconds', 'Watch interval (seconds)', '1 – 3600 between walks of the folder.'],
] as const satisfies readonly NumberRow<ImportNumberField>[];
const rule = (key: ImportNumberField) => NUMBER_RULES[`import.${key}`];

/** Import settings (docs/configuration.md "import"), including how finished jobs are handed to Radarr/Sonarr. */
export function ImportSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm(importForm(config.import));
  const save = useSaveConfig('Import settings saved');
  const errors = importErrors(form);
  const stored = config.import.archive_passwords_count;
  const numbers = (rows: readonly NumberRow<ImportNumberField>[]) => (
    <NumberFields rows={rows} values={form} errors={errors} rule={rule} onChange={set} />
  );

  return (
    <SectionLayout
      title="Import Processing"
      description="How NZBs are imported, and how finished jobs are handed to Radarr and Sonarr."
      onSave={() =>
        save.mutate({
          steps: [{ section: 'import', payload: importPayload(form) }],
          restartValues: {
            'import.max_processor_workers': form.max_processor_workers,
            'import.queue_processing_interval_seconds': form.queue_processing_interval_seconds,
          },
        })
      }
      onDiscard={reset}
      dirty={dirty}
      valid={Object.keys(errors).length === 0}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <div className="field-grid field-grid--2">{numbers(PROCESSING)}</div>

      <h3 className="config-section__subtitle">Handing jobs to Radarr/Sonarr</h3>
      <SelectField
        label="Import strategy"
        value={form.import_strategy}
        options={['symlink', 'strm', 'none'] as const}
        labels={{ symlink: 'Symlinks', strm: '.strm files', none: 'None' }}
        onChange={(v) => set('import_strategy', v)}
        hint={STRATEGY_HINTS[form.import_strategy]}
      />
      {form.import_strategy !== 'none' && (
        <TextField
          label="Import directory"
          value={form.import_dir}
          onChange={(v) => set('import_dir', v)}
          error={errors.import_dir}
          placeholder="/downloads"
          hint="The folder Radarr/Sonarr find completed jobs in. They must see it at this same path (mount the same host folder at the same path in their container), or add a Remote Path Mapping."
        />
      )}
      {form.import_strategy === 'strm' && (
        <TextField
          label="STRM base URL"
          value={form.strm_base_url}
          onChange={(v) => set('strm_base_url', v)}
          error={errors.strm_base_url}
          placeholder="http://spool:8080"
          hint="Spool’s address as your players reach it. Empty means http://localhost:<WebDAV port>, which a player in another container or on another device cannot reach."
        />
      )}

      <h3 className="config-section__subtitle">Watch folder</h3>
      <div className="field-grid field-grid--2">
        <TextField
          label="Watch folder"
          value={form.watch_dir}
          onChange={(v) => set('watch_dir', v)}
          error={errors.watch_dir}
          placeholder="/data/watch"
          hint="NZBs dropped here (or in its subfolders) are queued once each. Empty turns watching off."
        />
        {numbers(WATCH)}
      </div>
      <LinesField
        label="Scan roots"
        value={form.scan_roots}
        onChange={(v) => set('scan_roots', v)}
        placeholder="/data/nzb"
        hint="The folders a manual scan may read, one per line. Scans of any other path are refused."
      />

      <h3 className="config-section__subtitle">Files in a job</h3>
      <LinesField
        label="Allowed file extensions"
        value={form.allowed_file_extensions}
        onChange={(v) => set('allowed_file_extensions', v)}
        placeholder=".mkv"
        hint="One per line. A job shows only files with one of these extensions; archives are opened and their contents filtered the same way."
      />
      <ToggleField
        label="Leave out sample files"
        hint="Hides clips named as samples (x.sample.mkv) that are not the release's largest file."
        checked={form.filter_sample_files}
        onChange={(v) => set('filter_sample_files', v)}
      />
      <ToggleField
        label="Show archive volumes"
        hint="Keep RAR/7z volumes in the job beside the files they hold."
        checked={form.show_archive_volumes}
        onChange={(v) => set('show_archive_volumes', v)}
      />
      <LinesField
        label="Archive passwords"
        value={form.archive_passwords}
        onChange={(v) => set('archive_passwords', v)}
        placeholder={stored > 0 ? '••••••••' : 'Not set'}
        hint={
          stored > 0
            ? `${stored} password${stored === 1 ? ' is' : 's are'} stored. Type new ones (one per line) to replace them, or leave blank to keep them.`
            : 'Tried on encrypted archives after the NZB’s own password, one per line.'
        }
      />
      {stored > 0 && (
        <ToggleField
          label="Remove stored archive passwords"
          checked={form.clear_archive_passwords}
          onChange={(v) => set('clear_archive_passwords', v)}
        />
      )}
    </SectionLayout>
  );
}
