import type { SpoolConfig } from '../../../api/types';
import { NumberInput, ToggleField } from '../fields';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

const HEALTH_NUMBER_FIELDS = [
  'max_concurrent_jobs',
  'max_retries',
  'check_interval_seconds',
  'segment_sample_percentage',
  'max_repair_retries',
  'repair_breaker_percent',
  'repair_breaker_window_minutes',
  'stat_budget_per_hour',
  'body_budget_per_hour',
  'tier_new_max_age_days',
  'tier_new_interval_hours',
  'tier_recent_max_age_days',
  'tier_recent_interval_hours',
  'tier_old_interval_hours',
  'verified_window_days',
] as const;
type HealthNumberField = (typeof HEALTH_NUMBER_FIELDS)[number];

export function HealthSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({ ...config.health });
  const save = useSaveConfig('Health settings saved');
  const errors = Object.fromEntries(
    HEALTH_NUMBER_FIELDS.map((key) => [key, rangeError(form[key], NUMBER_RULES[`health.${key}`])]),
  ) as Record<HealthNumberField, string | undefined>;
  const valid = Object.values(errors).every((e) => !e);
  const number = (key: HealthNumberField, label: string, hint?: string) => (
    <NumberInput
      label={label}
      value={form[key]}
      rule={NUMBER_RULES[`health.${key}`]}
      onChange={(v) => set(key, v)}
      error={errors[key]}
      hint={hint}
    />
  );

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
        {number('max_concurrent_jobs', 'Max concurrent jobs')}
        {number('max_retries', 'Max retries')}
        {number('check_interval_seconds', 'Check interval (seconds)')}
        {number('segment_sample_percentage', 'Articles sampled per check (%)', '1 – 100 of a file’s articles.')}
        {number('max_repair_retries', 'Max repair retries', '0 – 10 repair requests to Radarr/Sonarr per file.')}
      </div>
      <ToggleField
        label="Check all segments"
        hint="Check every article instead of a sample. Thorough, but much slower on large libraries."
        checked={form.check_all_segments}
        onChange={(v) => set('check_all_segments', v)}
      />
      <h3 className="config-section__subtitle">Budget</h3>
      <p className="field__hint">
        What background checks may send to your providers each hour. Checks wait when it is spent; a check you start
        runs at once and is counted. The defaults keep 100,000 files checked.
      </p>
      <div className="field-grid field-grid--2">
        {number('stat_budget_per_hour', 'STAT per hour', 'Articles asked whether they exist.')}
        {number('body_budget_per_hour', 'BODY per hour', 'Articles downloaded whole (about 750 KB each).')}
      </div>
      <h3 className="config-section__subtitle">Age tiers</h3>
      <p className="field__hint">
        Takedowns come early in a release's life: new files are checked often, old ones rarely.
      </p>
      <div className="field-grid field-grid--2">
        {number('tier_new_max_age_days', 'New: younger than (days)')}
        {number('tier_new_interval_hours', 'New: check every (hours)')}
        {number('tier_recent_max_age_days', 'Recent: younger than (days)')}
        {number('tier_recent_interval_hours', 'Recent: check every (hours)')}
        {number('tier_old_interval_hours', 'Older: check every (hours)')}
        {number('verified_window_days', 'Verified window (days)', 'The Health screen’s “verified in the last N days”.')}
      </div>
      <h3 className="config-section__subtitle">Repair brake</h3>
      <p className="field__hint">
        When more than this share of the files checked within the window turn bad at once (a provider outage, a backbone
        losing articles), with at least 10 files checked, repairs pause instead of asking Radarr/Sonarr to replace your
        library.
      </p>
      <div className="field-grid field-grid--2">
        {number('repair_breaker_percent', 'Files turning bad (%)')}
        {number('repair_breaker_window_minutes', 'Within (minutes)')}
      </div>
    </SectionLayout>
  );
}
