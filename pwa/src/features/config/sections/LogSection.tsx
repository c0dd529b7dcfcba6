import type { LogConfig, SpoolConfig } from '../../../api/types';
import { NumberInput, SelectField, TextField, ToggleField } from '../fields';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

const NUMBERS = [
  ['max_size', 'Max file size (MB)', '1 – 10240. The file is rotated when it reaches this size.'],
  ['max_age', 'Keep rotated files (days)', '0 – 3650. 0 keeps them regardless of age.'],
  ['max_backups', 'Rotated files kept', '0 – 1000. 0 keeps any number.'],
] as const satisfies readonly [keyof LogConfig, string, string][];

/** The log entity of docs/console-contract.md §3 (docs/configuration.md "log"), shown in the System section. */
export function LogSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({ ...config.log });
  const save = useSaveConfig('Log settings saved');
  const errors = Object.fromEntries(
    NUMBERS.map(([key]) => [key, rangeError(form[key], NUMBER_RULES[`log.${key}`])]),
  ) as Record<(typeof NUMBERS)[number][0], string | undefined>;

  return (
    <SectionLayout
      title="Logging"
      titleId="config-log-title"
      description="Log lines always go to the container's output; with a file set they are also written there and rotated."
      onSave={() => save.mutate({ steps: [{ section: 'log', payload: { ...form, file: form.file.trim() } }] })}
      onDiscard={reset}
      dirty={dirty}
      valid={Object.values(errors).every((e) => !e)}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <div className="field-grid field-grid--2">
        <SelectField
          label="Log level"
          value={form.level}
          options={['debug', 'info', 'warn', 'error'] as const}
          onChange={(v) => set('level', v)}
        />
        <TextField
          label="Log file"
          value={form.file}
          onChange={(v) => set('file', v)}
          placeholder="logs/spool.log"
          hint="Empty logs to the output only. A relative path is under the data folder."
        />
        {NUMBERS.map(([key, label, hint]) => (
          <NumberInput
            key={key}
            label={label}
            value={form[key]}
            rule={NUMBER_RULES[`log.${key}`]}
            onChange={(v) => set(key, v)}
            error={errors[key]}
            hint={hint}
          />
        ))}
      </div>
      <ToggleField
        label="Compress rotated files"
        hint="Rotated files are gzipped."
        checked={form.compress}
        onChange={(v) => set('compress', v)}
      />
    </SectionLayout>
  );
}
