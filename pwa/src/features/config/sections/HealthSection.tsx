import type { SpoolConfig } from '../../../api/types';
import { NumberInput, ToggleField } from '../fields';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

export function HealthSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({ ...config.health });
  const save = useSaveConfig('Health settings saved');
  const errors = {
    jobs: rangeError(form.max_concurrent_jobs, NUMBER_RULES['health.max_concurrent_jobs']),
    retries: rangeError(form.max_retries, NUMBER_RULES['health.max_retries']),
    interval: rangeError(form.check_interval_seconds, NUMBER_RULES['health.check_interval_seconds']),
  };
  const valid = !errors.jobs && !errors.retries && !errors.interval;

  return (
    <SectionLayout
      title="Health Monitoring"
      description="Background checks that every article of your library is still available, and what to do when not."
      onSave={() =>
        // Auto-repair exists only while monitoring runs (docs/console-contract.md §5).
        save.mutate({
          steps: [
            { section: 'health', payload: { ...form, auto_repair_enabled: form.enabled && form.auto_repair_enabled } },
          ],
        })
      }
      onDiscard={reset}
      dirty={dirty}
      valid={valid}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <ToggleField
        label="Enable health monitoring"
        hint="Periodically checks imported files against your providers."
        checked={form.enabled}
        onChange={(v) => set('enabled', v)}
      />
      {form.enabled && (
        <ToggleField
          label="Automatic repair"
          hint="Ask Radarr/Sonarr for a replacement when a file is found corrupted."
          checked={form.auto_repair_enabled}
          onChange={(v) => set('auto_repair_enabled', v)}
        />
      )}
      <div className="field-grid field-grid--2">
        <NumberInput
          label="Max concurrent jobs"
          value={form.max_concurrent_jobs}
          rule={NUMBER_RULES['health.max_concurrent_jobs']}
          onChange={(v) => set('max_concurrent_jobs', v)}
          error={errors.jobs}
        />
        <NumberInput
          label="Max retries"
          value={form.max_retries}
          rule={NUMBER_RULES['health.max_retries']}
          onChange={(v) => set('max_retries', v)}
          error={errors.retries}
        />
        <NumberInput
          label="Check interval (seconds)"
          value={form.check_interval_seconds}
          rule={NUMBER_RULES['health.check_interval_seconds']}
          onChange={(v) => set('check_interval_seconds', v)}
          error={errors.interval}
        />
      </div>
      <ToggleField
        label="Check all segments"
        hint="Check every article instead of a sample. Thorough, but much slower on large libraries."
        checked={form.check_all_segments}
        onChange={(v) => set('check_all_segments', v)}
      />
    </SectionLayout>
  );
}
