import type { SpoolConfig } from '../../../api/types';
import { ToggleField } from '../fields';
import { NumberFields, numberErrors, type NumberRow } from '../NumberFields';
import { NUMBER_RULES } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

type HealthForm = SpoolConfig['health'];

/** The section's whole-number fields, one table per field grid, in the order they are shown. */
const CHECKS = [
  ['max_concurrent_jobs', 'Max concurrent jobs'],
  ['max_retries', 'Max retries'],
  ['check_interval_seconds', 'Check interval (seconds)'],
  ['segment_sample_percentage', 'Articles sampled per check (%)', '1 – 100 of a file’s articles.'],
  ['max_repair_retries', 'Max repair retries', '0 – 10 repair requests to Radarr/Sonarr per file.'],
] as const satisfies readonly NumberRow<keyof HealthForm>[];
const BUDGET = [
  ['stat_budget_per_hour', 'STAT per hour', 'Articles asked whether they exist.'],
  ['body_budget_per_hour', 'BODY per hour', 'Articles downloaded whole (about 750 KB each).'],
] as const satisfies readonly NumberRow<keyof HealthForm>[];
const TIERS = [
  ['tier_new_max_age_days', 'New: younger than (days)'],
  ['tier_new_interval_hours', 'New: check every (hours)'],
  ['tier_recent_max_age_days', 'Recent: younger than (days)'],
  ['tier_recent_interval_hours', 'Recent: check every (hours)'],
  ['tier_old_interval_hours', 'Older: check every (hours)'],
  ['verified_window_days', 'Verified window (days)', 'The Health screen’s “verified in the last N days”.'],
] as const satisfies readonly NumberRow<keyof HealthForm>[];
const BRAKE = [
  ['repair_breaker_percent', 'Files turning bad (%)'],
  ['repair_breaker_window_minutes', 'Within (minutes)'],
] as const satisfies readonly NumberRow<keyof HealthForm>[];
type HealthNumberField = (typeof CHECKS | typeof BUDGET | typeof TIERS | typeof BRAKE)[number][0];
const rule = (key: HealthNumberField) => NUMBER_RULES[`health.${key}`];

export function HealthSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({ ...config.health });
  const save = useSaveConfig('Health settings saved');
  const errors = numberErrors<HealthNumberField>([...CHECKS, ...BUDGET, ...TIERS, ...BRAKE], form, rule);
  const valid = Object.values(errors).every((e) => !e);
  const grid = (rows: readonly NumberRow<HealthNumberField>[]) => (
    <div className="field-grid field-grid--2">
      <NumberFields rows={rows} values={form} errors={errors} rule={rule} onChange={set} />
    </div>
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
      {grid(CHECKS)}
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
      {grid(BUDGET)}
      <h3 className="config-section__subtitle">Age tiers</h3>
      <p className="field__hint">
        Takedowns come early in a release's life: new files are checked often, old ones rarely.
      </p>
      {grid(TIERS)}
      <h3 className="config-section__subtitle">Repair brake</h3>
      <p className="field__hint">
        When more than this share of the files checked within the window turn bad at once (a provider outage, a backbone
        losing articles), with at least 10 files checked, repairs pause instead of asking Radarr/Sonarr to replace your
        library.
      </p>
      {grid(BRAKE)}
    </SectionLayout>
  );
}
